package io.statesync.reliability;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Polls one instance's REST API on its own thread (point GETs of random keys, a tenth of them never written, a third
 * each from the view, as consistent reads and of the key's diff, which its owner answers; every tenth request a list) and judges every answer against what the test
 * knows was committed.
 *
 * <p>A point read of a key the load has written names the newest resourceVersion the test has read from
 * statesync.resources ({@code ?resourceVersion=X}, read-your-writes in docs/rest.md). Allowed answers:
 * <ul>
 *   <li>200 with that version or a newer one;</li>
 *   <li>200 with an older version only when marked {@code X-Statesync-Stale: true} (a standby or restoring copy) and
 *       within {@code max.stale.lag}: the copy has not applied the changelog record that follows its version, so
 *       its lag is at least the changelog's end (as the test has read it before sending) minus that record's
 *       offset, which must not exceed the bound;</li>
 *   <li>503 with Retry-After, as long as no run of 503s on one partition (or on lists) lasts longer than
 *       {@link Bounds#unavailable()};</li>
 *   <li>404 for a key never written (or not yet read back by the test), or from a stale copy within the same bound.</li>
 * </ul>
 * Every answer must arrive within {@link Bounds#answer()}; a refused connection, a timeout or any other I/O error is
 * a violation. The one exception is the instance the scenario is restarting ({@link #restarting()} until
 * {@link #serving()}): from its stop until it is ready again, unreachable and 503 are counted apart, since it is
 * down or starting.
 */
final class RestProbe implements AutoCloseable {

    /** The bounds an instance's answers are held to while it serves. */
    record Bounds(Duration answer, Duration unavailable, long maxStaleLag) {
    }

    private static final int SAMPLES_PER_KIND = 3;
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The 503-window slot of lists. Point reads use {@code 3 * partition} plus their kind of read: a view read that
     * answers does not end a run of owner reads that do not.
     */
    private static final int LIST_SLOT = -1;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(1)).build();
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final AtomicLong violationCount = new AtomicLong();
    /** Per slot (see {@link #LIST_SLOT}): its current run of 503s; absent if none. */
    private final Map<Integer, Run> unavailable = new ConcurrentHashMap<>();
    private final AtomicLong longestUnavailableMillis = new AtomicLong();
    private final AtomicLong slowestServingMillis = new AtomicLong();
    private final AtomicLong largestStaleLag = new AtomicLong(-1);
    private volatile String longestRun = "none";
    private final String name;
    private final int port;
    private final String kind;
    private final int keys;
    private final Bounds bounds;
    private final LoadedPipeline load;
    private final StateChangelog changelog;
    private final BooleanSupplier rebalancing;
    private final Thread thread;
    private volatile boolean restarting;
    private volatile boolean running = true;

    /**
     * @param port        the instance's REST port, which a {@link ChildApp} keeps across restarts
     * @param load        the tail of statesync.resources: the newest committed version of each key
     * @param changelog   the tail of the state store's changelog, to bound stale answers
     * @param rebalancing whether any instance is being restarted, to count what this one answered meanwhile
     */
    RestProbe(String name, int port, String kind, int keys, Bounds bounds, LoadedPipeline load, StateChangelog changelog,
              BooleanSupplier rebalancing) {
        this.name = name;
        this.port = port;
        this.kind = kind;
        this.keys = keys;
        this.bounds = bounds;
        this.load = load;
        this.changelog = changelog;
        this.rebalancing = rebalancing;
        thread = new Thread(this::loop, "rest-probe-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The instance is about to be stopped: until {@link #serving()}, unreachable and 503 are expected. */
    void restarting() {
        restarting = true;
    }

    /** The instance is ready again: from now on it is held to the bounds. */
    void serving() {
        unavailable.clear();
        restarting = false;
    }

    private void loop() {
        SplittableRandom random = new SplittableRandom(11);
        for (long i = 0; running; i++) {
            if (i % 10 == 0) {
                probeList();
            } else {
                // A tenth of the keys beyond the load's key space: they are never written, so they must be 404.
                int k = random.nextInt(keys + keys / 10 + 1);
                probeKey(kind + "/default/key-" + k, k < keys, PointRead.values()[(int) (i % 3)]);
            }
            Waits.sleep(20);
        }
    }

    private void probeList() {
        HttpResponse<String> r = send("/api/v1/resources?kind=" + kind + "&limit=20");
        if (r == null) {
            return;
        }
        if (r.statusCode() == 200) {
            JsonNode body = parse(r);
            if (body == null || !body.path("items").isArray()) {
                violation("list", "200 without items: " + r.body());
            }
            available(LIST_SLOT);
        } else {
            unavailableOrWrong(r, LIST_SLOT, "list");
        }
    }

    /** How a point read is made. */
    private enum PointRead {
        /** From the instance's view, with the committed version as the read's minimum. */
        VIEW,
        /** {@code consistency=owner} without a version: it must still show every committed write. */
        CONSISTENT,
        /**
         * The key's diff, which the key's owner answers from its store (interactive queries), never the view, so that
         * reads go through the routing that a rebalance moves.
         */
        DIFF
    }

    private void probeKey(String key, boolean inKeySpace, PointRead read) {
        long committed = inKeySpace ? load.committedVersion(key) : -1;
        int partition = changelog.partition(key);
        long changelogEnd = changelog.readEnd(partition);
        int slot = PointRead.values().length * partition + read.ordinal();
        String path = "/api/v1/resources/" + key + switch (read) {
            case VIEW -> committed >= 0 ? "?resourceVersion=" + committed : "";
            case CONSISTENT -> "?consistency=owner";
            case DIFF -> "/diff";
        };
        HttpResponse<String> r = send(path);
        if (r == null) {
            return;
        }
        count(read.name().toLowerCase(Locale.ROOT) + " reads answered");
        String what = key + " (" + read.name().toLowerCase(Locale.ROOT) + " read)"
            + (committed >= 0 ? " (committed version " + committed + ")" : "");
        switch (r.statusCode()) {
            case 200 -> {
                answered200(r, key, inKeySpace, committed, changelogEnd, what);
                available(slot);
            }
            case 404 -> {
                if (committed < 0) {
                    count("404 (not written)");
                } else if (stale(r)) {
                    // A lagging copy without the key: it has not applied the key's first record.
                    count("404 stale for a written key");
                    checkStaleLag(key, Long.MIN_VALUE, changelogEnd, what + " answered 404");
                } else {
                    violation("404 for a written key", what + " from " + origin(r) + ": " + r.body());
                }
            }
            default -> unavailableOrWrong(r, slot, what);
        }
    }

    private void answered200(HttpResponse<String> r, String key, boolean inKeySpace, long committed, long changelogEnd, String what) {
        JsonNode body = parse(r);
        JsonNode meta = body == null ? null : body.path("metadata");
        if (meta == null || !key.endsWith("/" + meta.path("name").asText("?"))) {
            violation("200 with another body", what + ": " + r.body());
            return;
        }
        if (!inKeySpace) {
            violation("200 for a key never written", what + ": " + r.body());
            return;
        }
        long version = Long.parseLong(meta.path("resourceVersion").asText("-1"));
        boolean stale = stale(r);
        count(stale ? "200 stale" : "200");
        if (version >= committed) {
            return;
        }
        if (!stale) {
            violation("200 older than committed, not marked stale", what + " answered version " + version + " from " + origin(r));
            return;
        }
        count("200 stale and older than committed");
        checkStaleLag(key, version, changelogEnd, what + " answered version " + version);
    }

    /**
     * A copy that answers {@code version} of a key (or nothing, {@code Long.MIN_VALUE}) has not applied the key's next
     * record on the changelog, so it lags by at least the changelog's end before the request minus that record's offset.
     */
    private void checkStaleLag(String key, long version, long changelogEnd, String what) {
        long next = changelog.offsetAfter(key, version);
        long lag = next < 0 ? 0 : Math.max(0, changelogEnd - next);
        largestStaleLag.accumulateAndGet(lag, Math::max);
        if (lag > bounds.maxStaleLag()) {
            violation("stale beyond max.stale.lag", what + " from a copy at least " + lag + " changelog offsets behind, max.stale.lag "
                + bounds.maxStaleLag());
        }
    }

    private static boolean stale(HttpResponse<String> r) {
        return "true".equals(r.headers().firstValue("X-Statesync-Stale").orElse(null));
    }

    /** A 503 with Retry-After is allowed for a while; anything else is wrong. */
    private void unavailableOrWrong(HttpResponse<String> r, int slot, String what) {
        if (r.statusCode() != 503) {
            violation(String.valueOf(r.statusCode()), what + ": " + r.body());
            return;
        }
        if (r.headers().firstValue("Retry-After").isEmpty()) {
            violation("503 without Retry-After", what + ": " + r.body());
            return;
        }
        if (restarting) {
            count("503 while restarting");
            return;
        }
        count("503");
        String answer = what + " from " + origin(r) + ": " + r.body();
        unavailable.computeIfAbsent(slot, s -> new Run(System.nanoTime(), answer)).check(slot, answer);
    }

    private static String slotName(int slot) {
        int kinds = PointRead.values().length;
        return slot == LIST_SLOT ? "lists"
            : PointRead.values()[slot % kinds].name().toLowerCase(Locale.ROOT) + " reads of partition " + slot / kinds;
    }

    /** Who answered ({@code X-Statesync-Served-By}) and from where ({@code X-Statesync-Source}), as far as the headers say. */
    private static String origin(HttpResponse<String> r) {
        return r.headers().firstValue("X-Statesync-Served-By").orElse("?") + " ("
            + r.headers().firstValue("X-Statesync-Source").orElse("source not given") + ")";
    }

    private void available(int slot) {
        Run run = unavailable.remove(slot);
        if (run != null && !restarting) {
            run.check(slot, "then answered");
        }
    }

    /** One slot's run of 503s on a serving instance: it must end within {@link Bounds#unavailable()}. */
    private final class Run {
        private final long since;
        private final String first;
        private boolean reported;

        Run(long since, String first) {
            this.since = since;
            this.first = first;
        }

        void check(int slot, String last) {
            long millis = (System.nanoTime() - since) / 1_000_000;
            if (millis > longestUnavailableMillis.getAndAccumulate(millis, Math::max)) {
                longestRun = slotName(slot) + ", " + millis + " ms, first " + first
                    + ", last " + last;
            }
            if (millis > bounds.unavailable().toMillis() && !reported) {
                reported = true;
                violation("503 for too long", slotName(slot) + " answered 503 for "
                    + millis + " ms, more than " + bounds.unavailable().toMillis() + " ms; last: " + last);
            }
        }
    }

    /** The answer, or null when there was none (counted, and a violation unless the instance is restarting). */
    private HttpResponse<String> send(String path) {
        boolean restartingAtSend = restarting;
        boolean duringRebalance = rebalancing.getAsBoolean();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(bounds.answer()).build();
        long start = System.nanoTime();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (!restartingAtSend && !restarting) {
                slowestServingMillis.accumulateAndGet((System.nanoTime() - start) / 1_000_000, Math::max);
                if (duringRebalance) {
                    count("answered during a rebalance");
                }
            }
            return r;
        } catch (IOException e) {
            long millis = (System.nanoTime() - start) / 1_000_000;
            String kindOfFailure = e instanceof HttpTimeoutException ? "no answer within " + bounds.answer().toMillis() + " ms"
                : e instanceof ConnectException ? "connection refused" : "I/O error " + e;
            if (restartingAtSend || restarting) {
                count("unreachable while restarting");
            } else {
                violation(kindOfFailure, path + " after " + millis + " ms" + (duringRebalance ? ", during a rebalance" : ""));
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
            return null;
        }
    }

    private static JsonNode parse(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            return null;
        }
    }

    private void count(String what) {
        counts.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
    }

    private void violation(String what, String detail) {
        violationCount.incrementAndGet();
        // The first few of each kind, so that one frequent kind does not hide the others.
        if (counts.computeIfAbsent("violation: " + what, k -> new AtomicLong()).incrementAndGet() <= SAMPLES_PER_KIND) {
            violations.add(name + ": " + what + ": " + detail);
        }
    }

    /** Answers and outcomes by kind, violations included, with the longest 503 run, slowest answer and largest stale lag. */
    Map<String, Long> figures() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.get()));
        out.put("longest 503 run while serving (ms)", longestUnavailableMillis.get());
        out.put("slowest answer while serving (ms)", slowestServingMillis.get());
        out.put("largest lag of a stale answer older than committed (changelog offsets, at least)", largestStaleLag.get());
        return out;
    }

    /** The longest run of 503s on a serving instance: where, how long, its first and last answer. */
    String longestRun() {
        return longestRun;
    }

    long violationCount() {
        return violationCount.get();
    }

    /** The first violations of each kind, with what was asked and answered. */
    List<String> violations() {
        return List.copyOf(violations);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(20_000);
        // A run of 503s still open at the end counts up to now.
        if (!restarting) {
            unavailable.forEach((slot, run) -> run.check(slot, "still 503 at the end"));
        }
    }
}
