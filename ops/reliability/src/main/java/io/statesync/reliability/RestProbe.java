package io.statesync.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Polls one instance's REST API on its own thread (point GETs of random keys, some never written, and a list) and
 * classifies every answer. Allowed: 200, 404 for a key not created yet, and 503 with Retry-After; anything else
 * (a 500 above all) is a violation, kept with its body. A refused connection is counted apart: it is expected
 * only while the instance is stopped.
 */
final class RestProbe implements AutoCloseable {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final Map<String, AtomicLong> byStatus = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final AtomicLong unreachable = new AtomicLong();
    private final AtomicLong violationCount = new AtomicLong();
    private final int port;
    private final String kind;
    private final int keys;
    private final Thread thread;
    private volatile boolean running = true;

    /** @param port the instance's REST port, which a {@link ChildApp} keeps across restarts */
    RestProbe(String name, int port, String kind, int keys) {
        this.port = port;
        this.kind = kind;
        this.keys = keys;
        thread = new Thread(this::loop, "rest-probe-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        SplittableRandom random = new SplittableRandom(11);
        for (long i = 0; running; i++) {
            // A tenth of the keys beyond the load's key space: they are never written, so they must be 404, not 500.
            String path = i % 10 == 0 ? "/api/v1/resources?kind=" + kind + "&limit=20"
                : "/api/v1/resources/" + kind + "/default/key-" + random.nextInt(keys + keys / 10 + 1);
            probe(path);
            Waits.sleep(20);
        }
    }

    private void probe(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(15)).build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            byStatus.computeIfAbsent(String.valueOf(r.statusCode()), k -> new AtomicLong()).incrementAndGet();
            boolean allowed = r.statusCode() == 200 || r.statusCode() == 404
                || r.statusCode() == 503 && r.headers().firstValue("Retry-After").isPresent();
            if (!allowed && violationCount.incrementAndGet() <= 20) {
                violations.add(r.statusCode() + " " + path + " " + r.body());
            }
        } catch (IOException e) {
            unreachable.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Answers by HTTP status. */
    Map<String, Long> byStatus() {
        Map<String, Long> out = new TreeMap<>();
        byStatus.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** Answers outside 200, 404 and 503-with-Retry-After. */
    long violationCount() {
        return violationCount.get();
    }

    /** The first 20 violations, with their bodies. */
    List<String> violations() {
        return List.copyOf(violations);
    }

    long unreachable() {
        return unreachable.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(20_000);
    }
}
