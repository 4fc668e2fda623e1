package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.statesync.embedded.junit.EmbeddedClusterExtension;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that send one {@code X-Request-Id} on concurrent writes: each write must get its own answer, because
 * answers are matched by an id the server generates, and the request id is only echoed. A stale If-Match answers 409
 * while the fresh write beside it answers 200, in every round.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class SharedRequestIdAbuseIT {

    private static final int ROUNDS = 30;
    private static final String JSON = "application/json";
    private static RestTestApp app;
    private static ExecutorService pool;

    @BeforeAll
    static void start() throws Exception {
        app = RestTestApp.start(RestTestApp.config("shared-request-id", RestTestApp.prefix("shared-request-id")));
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (app != null) {
            app.close();
        }
    }

    /** Both calls, started together behind a barrier, and their answers in the same order. */
    private static List<HttpResponse<String>> together(Callable<HttpResponse<String>> a, Callable<HttpResponse<String>> b)
        throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(2);
        Future<HttpResponse<String>> fa = pool.submit(() -> {
            barrier.await();
            return a.call();
        });
        Future<HttpResponse<String>> fb = pool.submit(() -> {
            barrier.await();
            return b.call();
        });
        return List.of(fa.get(), fb.get());
    }

    private static String version(HttpResponse<String> r) {
        return json(r).path("metadata").path("resourceVersion").asText();
    }

    private static String path(String name) {
        return "/api/v1/resources/WebApp/default/" + name;
    }

    @Test
    void shouldAnswerTwoConcurrentPutsThatShareARequestIdEachWithItsOwnOutcome() throws Exception {
        String shared = "shared-" + UUID.randomUUID();
        for (int round = 0; round < ROUNDS; round++) {
            String name = "put-" + round;
            String stale = version(app.put(path(name), Map.of("spec", Map.of("a", 0))));
            String fresh = version(app.put(path(name), Map.of("spec", Map.of("a", 1))));
            int value = 100 + round;

            List<HttpResponse<String>> answers = together(
                () -> app.send("PUT", path(name), Map.of("spec", Map.of("a", value)), JSON,
                    "If-Match", "\"" + fresh + "\"", "X-Request-Id", shared),
                () -> app.send("PUT", path(name), Map.of("spec", Map.of("a", -1)), JSON,
                    "If-Match", "\"" + stale + "\"", "X-Request-Id", shared));

            HttpResponse<String> ok = answers.get(0);
            HttpResponse<String> conflict = answers.get(1);
            assertThat(ok.statusCode()).as("round %d, the fresh write: %s", round, ok.body()).isEqualTo(200);
            assertThat(json(ok).path("spec").path("a").asInt()).as("round %d", round).isEqualTo(value);
            assertThat(conflict.statusCode()).as("round %d, the stale write: %s", round, conflict.body()).isEqualTo(409);
            assertThat(json(conflict).path("reason").asText()).isEqualTo("Conflict");
            assertThat(answers).allSatisfy(r -> assertThat(r.headers().firstValue("X-Request-Id")).hasValue(shared));
            assertThat(json(app.get(path(name))).path("spec").path("a").asInt()).as("round %d stored", round)
                .isEqualTo(value);
        }
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    @Test
    void shouldAnswerPostPatchAndDeleteThatShareARequestIdEachWithItsOwnOutcome() throws Exception {
        String shared = "shared-" + UUID.randomUUID();
        String collection = "/api/v1/resources/WebApp/default";
        for (int round = 0; round < 10; round++) {
            String taken = "taken-" + round;
            String gone = "gone-" + round;
            String stale = version(app.put(path(taken), Map.of("spec", Map.of("a", 0))));
            app.put(path(taken), Map.of("spec", Map.of("a", 1)));
            app.put(path(gone), Map.of("spec", Map.of("a", 0)));

            List<HttpResponse<String>> created = together(
                () -> app.send("POST", collection, Map.of("metadata", Map.of("name", "new-" + UUID.randomUUID().toString().substring(0, 8)),
                    "spec", Map.of("a", 1)), JSON, "X-Request-Id", shared),
                () -> app.send("POST", collection, Map.of("metadata", Map.of("name", taken), "spec", Map.of("a", 2)),
                    JSON, "X-Request-Id", shared));
            assertThat(created.get(0).statusCode()).as("round %d, a new name: %s", round, created.get(0).body())
                .isEqualTo(201);
            assertThat(created.get(1).statusCode()).as("round %d, a taken name: %s", round, created.get(1).body())
                .isEqualTo(409);
            assertThat(json(created.get(1)).path("reason").asText()).isEqualTo("AlreadyExists");

            List<HttpResponse<String>> changed = together(
                () -> app.send("DELETE", path(gone), null, null, "X-Request-Id", shared),
                () -> app.send("PATCH", path(taken), Map.of("spec", Map.of("a", 3)), "application/merge-patch+json",
                    "If-Match", "\"" + stale + "\"", "X-Request-Id", shared));
            assertThat(changed.get(0).statusCode()).as("round %d, the delete: %s", round, changed.get(0).body())
                .isEqualTo(200);
            assertThat(changed.get(1).statusCode()).as("round %d, the stale patch: %s", round, changed.get(1).body())
                .isEqualTo(409);
            assertThat(json(app.get(path(taken))).path("spec").path("a").asInt()).isEqualTo(1);
        }
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }
}
