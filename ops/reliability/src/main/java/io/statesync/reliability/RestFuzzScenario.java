package io.statesync.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.config.AppConfig;
import io.statesync.embedded.ChildJvm;
import io.statesync.embedded.FreePorts;
import io.statesync.server.ServerConfig;

/**
 * Bad REST input against statesync running as a child JVM with a small heap, on its own API and on the Kubernetes
 * API ({@code /apis}, {@code /api}, whose errors are Status objects with the same three fields): every answer must be
 * a 4xx with a {@code {code, reason, message}} JSON body, and the child must end alive, ready and without an OutOfMemoryError.
 * The requests come from a seeded {@link RestFuzzRequests}, so a seed replays a run.
 */
final class RestFuzzScenario {

    static final String HEAP = "-Xmx96m";
    private static final int MAX_BODY_BYTES = 65_536;
    private static final int MAX_SAMPLES = 20;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Figures of one run; {@code findings} holds the first few answers that broke the rule. */
    record Report(long seed, int requests, Map<Integer, Integer> statuses, Map<String, Integer> categories, int badAnswers,
                  List<String> findings, Duration elapsed, boolean aliveAndReady, boolean outOfMemory, long peakHeapBytes) {
        boolean passed() {
            return badAnswers == 0 && aliveAndReady && !outOfMemory;
        }

        @Override
        public String toString() {
            return "rest-fuzz seed=" + seed + " requests=" + requests + " time=" + elapsed.toMillis() + " ms statuses=" + statuses
                + " categories=" + categories + " badAnswers=" + badAnswers + " aliveAndReady=" + aliveAndReady
                + " outOfMemory=" + outOfMemory + " peakHeap=" + peakHeapBytes / 1_048_576 + " MB (" + HEAP + ")"
                + (findings.isEmpty() ? "" : "\n  " + String.join("\n  ", findings));
        }
    }

    private final AppConfig config;
    private final Path log;
    private final String writer = "w-" + UUID.randomUUID();
    private final String reader = "r-" + UUID.randomUUID();
    private final int port = FreePorts.pick();
    private final HttpClient probe = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final AtomicLong peakHeap = new AtomicLong();

    /** @param config an isolated config ({@link InProcessApp#isolatedConfig}); port, tokens and body limit are set here */
    RestFuzzScenario(AppConfig config, Path workDir) {
        this.config = config;
        this.log = workDir.resolve("rest-fuzz-child.log");
    }

    /** @param timeout bounds the fuzz itself; the child's start-up gets {@link #START_TIMEOUT} on top */
    Report run(int requests, long seed, int clients, long hugeChunkedBytes, Duration timeout) throws Exception {
        Process child = startChild(START_TIMEOUT);
        try {
            serveKind("WebApp");
            System.out.println("rest-fuzz: seed " + seed + " (replay with --seed " + seed + ")");
            RestFuzzRequests gen = new RestFuzzRequests(seed, writer, reader, MAX_BODY_BYTES, hugeChunkedBytes);
            long start = System.nanoTime();
            Outcomes outcomes = fire(gen, requests, clients, timeout);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            sampleHeap();
            boolean healthy = child.isAlive() && status("/healthz") == 200 && status("/readyz") == 200;
            boolean oom = Files.readString(log).contains("OutOfMemoryError");
            return new Report(seed, outcomes.sent.get(), outcomes.statuses, outcomes.categories, outcomes.bad.get(),
                outcomes.samples, elapsed, healthy, oom, peakHeap.get());
        } finally {
            child.destroy();
            if (!child.waitFor(15, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    /** {@code SoakMain --scenario rest-fuzz [--requests N] [--seed N]}: 1 GB chunked bodies against the 96 MB heap. */
    static boolean soak(Map<String, String> opts, String bootstrap, String registryUrl, Path dir, Duration timeout) throws Exception {
        AppConfig config = InProcessApp.isolatedConfig(bootstrap, registryUrl, dir.resolve("state"), Map.of());
        long seed = Long.parseLong(opts.getOrDefault("seed", String.valueOf(System.nanoTime())));
        Report report = new RestFuzzScenario(config, dir).run(Integer.parseInt(opts.getOrDefault("requests", "50000")), seed, 4,
            1L << 30, timeout);
        System.out.println(report);
        return report.passed();
    }

    private Process startChild(Duration timeout) throws IOException {
        List<String> args = new ArrayList<>(List.of("run"));
        Map<String, Object> props = new TreeMap<>(config.originals());
        props.put(ServerConfig.HTTP_PORT, port);
        props.put(ServerConfig.HTTP_MAX_BODY_BYTES, MAX_BODY_BYTES);
        props.put(ServerConfig.AUTH_TOKENS, writer + ":writer," + reader + ":reader");
        props.forEach((k, v) -> {
            args.add("-D");
            args.add(k + "=" + v);
        });
        List<String> command = ChildJvm.command(List.of(HEAP, "-XX:+UseSerialGC"), ChildJvm.currentClassPath(),
            "io.statesync.app.StatesyncMain", args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!Waits.until(() -> !p.isAlive() || status("/readyz") == 200, timeout) || !p.isAlive()) {
            p.destroyForcibly();
            List<String> lines = Files.readAllLines(log);
            throw new IllegalStateException("statesync child not ready within " + timeout + "; its log ends with:\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
        }
        return p;
    }

    /** What the fuzz clients saw, shared between them. */
    private static final class Outcomes {
        final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger bad = new AtomicInteger();
        final Map<Integer, Integer> statuses = new TreeMap<>();
        final Map<String, Integer> categories = new TreeMap<>();
        final List<String> samples = new ArrayList<>();

        synchronized void record(RestFuzzRequests.Request req, int status, String problem) {
            statuses.merge(status, 1, Integer::sum);
            categories.merge(req.category(), 1, Integer::sum);
            if (problem != null) {
                bad.incrementAndGet();
                if (samples.size() < MAX_SAMPLES) {
                    samples.add(req.describe() + " -> " + problem);
                }
            }
        }
    }

    private Outcomes fire(RestFuzzRequests gen, int requests, int clients, Duration timeout) throws InterruptedException {
        Outcomes outcomes = new Outcomes();
        RestFuzzHttp http = new RestFuzzHttp("127.0.0.1", port);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        ExecutorService writers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "rest-fuzz-body-writer");
            t.setDaemon(true);
            return t;
        });
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int c = 0; c < clients; c++) {
            pool.submit(() -> {
                while (outcomes.sent.getAndIncrement() < requests && System.nanoTime() < deadline) {
                    RestFuzzRequests.Request req = gen.next();
                    try {
                        RestFuzzHttp.Response resp = http.send(req, writers);
                        outcomes.record(req, resp.status(), problem(resp));
                    } catch (IOException | RuntimeException e) {
                        outcomes.record(req, -1, "no answer: " + e);
                    }
                    if (outcomes.sent.get() % 500 == 0) {
                        sampleHeap();
                    }
                }
                return null;
            });
        }
        pool.shutdown();
        pool.awaitTermination(timeout.toMillis() + 30_000, TimeUnit.MILLISECONDS);
        writers.shutdownNow();
        outcomes.sent.set(outcomes.statuses.values().stream().mapToInt(Integer::intValue).sum());
        return outcomes;
    }

    /** Why an answer breaks the rule, or null: it must be a 4xx whose body is {code (= status), reason, message}. */
    static String problem(RestFuzzHttp.Response resp) {
        String excerpt = resp.bodyText().length() > 200 ? resp.bodyText().substring(0, 200) + "..." : resp.bodyText();
        if (resp.status() < 400 || resp.status() > 499) {
            return resp.status() + " " + excerpt;
        }
        try {
            JsonNode n = JSON.readTree(resp.body());
            if (n != null && n.path("code").asInt() == resp.status() && n.path("reason").isTextual()
                && !n.path("reason").asText().isEmpty() && n.path("message").isTextual()) {
                return null;
            }
        } catch (IOException e) {
            // falls through: not JSON
        }
        return resp.status() + " without a {code, reason, message} body: " + excerpt;
    }

    /** Writes a default policy for {@code kind}, so that the Kubernetes API serves it and fuzzed writes reach its parsers. */
    private void serveKind(String kind) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/kinds/" + kind))
            .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + writer).header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString("{}")).build();
        HttpResponse<String> r = probe.send(req, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("the kind policy for " + kind + " was not written: " + r.statusCode() + " " + r.body());
        }
    }

    private int status(String path) {
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).build();
            return probe.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The child's used heap from its Prometheus metrics (Micrometer's jvm_memory_used_bytes, heap areas summed). */
    private void sampleHeap() {
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(5)).build();
            long used = probe.send(req, HttpResponse.BodyHandlers.ofString()).body().lines()
                .filter(l -> l.startsWith("jvm_memory_used_bytes{") && l.contains("area=\"heap\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
            peakHeap.accumulateAndGet(used, Math::max);
        } catch (IOException | RuntimeException e) {
            // a missed sample only lowers the peak figure
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
