package io.statesync.rest;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.schemas.Values;
import io.statesync.server.ServerConfig;
import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Writes with {@code ?waitFor=}: answered once the agent reports the written generation, 202 at the timeout without
 * a report, their timeout capped, their number capped (429 before anything is written), on the embedded broker and
 * registry over real HTTP.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class WaitForConvergenceIT {

    private static final int MAX_WAITING = 20;
    private static final int MAX_TIMEOUT_SECONDS = 20;
    private static final String WAIT = "X-Statesync-Wait";

    private static RestTestApp app;
    private static Map<String, Object> config;
    private static TopicNames topics;
    private final ExecutorService clients = Executors.newFixedThreadPool(MAX_WAITING + 8);

    @BeforeAll
    static void start() throws Exception {
        config = RestTestApp.config("write-wait", RestTestApp.prefix("write-wait"));
        config.put(ServerConfig.WRITE_WAIT_MAX_WAITING, MAX_WAITING);
        config.put(ServerConfig.WRITE_WAIT_MAX_TIMEOUT_SECONDS, (long) MAX_TIMEOUT_SECONDS);
        topics = new TopicNames((String) config.get(AppConfig.TOPIC_PREFIX));
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
    }

    @AfterAll
    static void stop() {
        RestTestApp.closeAll(app);
    }

    private static String kind() {
        return RestTestApp.uniqueKind("Wf");
    }

    private CompletableFuture<HttpResponse<String>> putAsync(String path, Object body) {
        return CompletableFuture.supplyAsync(() -> app.put(path, body), clients);
    }

    @Test
    void shouldAnswerAWaitingWriteOnlyAfterTheAgentReportsTheWrittenGeneration() throws Exception {
        String key = kind() + "/default/shop";
        String path = "/api/v1/resources/" + key;
        JsonNode created = json(app.put(path, body(Map.of("image", "nginx:1"), Map.of())));
        String uid = created.path("metadata").path("uid").asText();
        try (InTestAgent agent = new InTestAgent(EmbeddedClusterExtension.bootstrapServers(),
                new TopologySerdes(new AppConfig(config)), topics)) {
            agent.hold();
            Map<String, Object> spec = Map.of("image", "nginx:2");
            CompletableFuture<HttpResponse<String>> waiting = putAsync(path + "?waitFor=Synced&timeoutSeconds=60",
                body(spec, Map.of()));
            await().atMost(Duration.ofSeconds(10)).until(() ->
                json(app.get(path)).path("metadata").path("generation").asLong() == 2);
            Thread.sleep(1_000);
            assertThat(waiting).as("no report of generation 2 yet").isNotDone();

            agent.report(key, uid, 2, Values.fromJava(spec), null);
            HttpResponse<String> answer = waiting.get(20, TimeUnit.SECONDS);

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(answer.headers().firstValue(WAIT)).hasValue("Synced");
            assertThat(json(answer).path("status").path("syncStatus").asText()).isEqualTo("Synced");
            assertThat(json(answer).path("status").path("observedGeneration").asLong()).isGreaterThanOrEqualTo(2);
            assertThat(json(answer).path("spec").path("image").asText()).isEqualTo("nginx:2");
        }
    }

    @Test
    void shouldAnswerAWriteWaitingForHealthyOnlyOnceTheReportMakesItHealthy() throws Exception {
        String kind = kind();
        HttpResponse<String> policy = app.put("/api/v1/kinds/" + kind, Map.of("healthRules", List.of(
            Map.of("status", "Progressing", "when", "observed.status.readyReplicas < desired.replicas"),
            Map.of("status", "Healthy", "when", "true"))));
        assertThat(policy.statusCode()).as(policy.body()).isEqualTo(200);
        String key = kind + "/default/shop";
        String path = "/api/v1/resources/" + key;
        Map<String, Object> spec = Map.of("replicas", 2L);
        String uid = json(app.put(path, body(spec, Map.of()))).path("metadata").path("uid").asText();
        try (InTestAgent agent = new InTestAgent(EmbeddedClusterExtension.bootstrapServers(),
                new TopologySerdes(new AppConfig(config)), topics)) {
            agent.hold();
            agent.report(key, uid, 1, Values.fromJava(spec), Values.fromJava(Map.of("readyReplicas", 1L)), null);
            CompletableFuture<HttpResponse<String>> waiting = putAsync(path + "?waitFor=Healthy&timeoutSeconds=60",
                body(spec, Map.of()));
            await().atMost(Duration.ofSeconds(10)).until(() -> "Synced".equals(
                json(app.get(path)).path("status").path("syncStatus").asText()));
            Thread.sleep(1_000);
            assertThat(waiting).as("Synced but still Progressing").isNotDone();

            agent.report(key, uid, 1, Values.fromJava(spec), Values.fromJava(Map.of("readyReplicas", 2L)), null);
            HttpResponse<String> answer = waiting.get(20, TimeUnit.SECONDS);

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(answer.headers().firstValue(WAIT)).hasValue("Healthy");
            assertThat(json(answer).path("status").path("health").path("status").asText()).isEqualTo("Healthy");
        }
    }

    @Test
    void shouldAnswer202WithTheCurrentObjectAtTheTimeoutWhenNoAgentReports() {
        String path = "/api/v1/resources/" + kind() + "/default/shop";
        long start = System.nanoTime();
        HttpResponse<String> answer = app.put(path + "?waitFor=Synced&timeoutSeconds=1", body(Map.of("image", "nginx:1"), Map.of()));
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        assertThat(answer.headers().firstValue(WAIT)).hasValue("Timeout");
        assertThat(answer.headers().firstValue("Warning").orElse("")).contains("not Synced after 1s");
        assertThat(ms).as("answered at its timeout").isBetween(900L, 10_000L);
        assertThat(json(answer).path("status").path("syncStatus").asText()).isNotEqualTo("Synced");
        assertThat(json(answer).path("spec").path("image").asText()).as("the write is stored").isEqualTo("nginx:1");
        assertThat(app.get(path).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldCapTimeoutSecondsAtTheConfiguredMaximum() {
        String path = "/api/v1/resources/" + kind() + "/default/shop";
        long start = System.nanoTime();
        HttpResponse<String> answer = app.put(path + "?waitFor=Healthy&timeoutSeconds=3600", body(Map.of("n", 1), Map.of()));
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        assertThat(ms).as("closed at write.wait.max.timeout.seconds").isBetween(MAX_TIMEOUT_SECONDS * 1000L - 100, MAX_TIMEOUT_SECONDS * 1000L + 15_000L);
        assertThat(answer.headers().firstValue("Warning").orElse("")).contains("not Healthy after " + MAX_TIMEOUT_SECONDS + "s");
    }

    @Test
    void shouldRefuseAnUnknownConditionABadTimeoutAndADryRunWith400AndWriteNothing() {
        String path = "/api/v1/resources/" + kind() + "/default/shop";
        Map<String, Object> body = body(Map.of("n", 1), Map.of());

        HttpResponse<String> unknown = app.put(path + "?waitFor=Ready", body);
        HttpResponse<String> badTimeout = app.put(path + "?waitFor=Synced&timeoutSeconds=soon", body);
        HttpResponse<String> dryRun = app.put(path + "?waitFor=Synced&dryRun=All", body);

        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(400);
        assertThat(json(unknown).path("message").asText()).contains("waitFor").contains("\"Synced\", \"Healthy\"");
        assertThat(badTimeout.statusCode()).as(badTimeout.body()).isEqualTo(400);
        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(400);
        assertThat(app.get(path).statusCode()).as("nothing stored").isEqualTo(404);
    }

    @Test
    void shouldRefuseTenThousandWaitingWritesPastTheCapWith429AndCloseTheHeldOnesAtTheirTimeout() throws Exception {
        String kind = kind();
        List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
        for (int i = 0; i < MAX_WAITING; i++) {
            held.add(putAsync("/api/v1/resources/" + kind + "/default/held-" + i + "?waitFor=Synced",
                body(Map.of("n", i), Map.of())));
        }
        // The held writes take their places before they are submitted, so once all are stored, all are in: one more
        // is refused. A probe sent before then would take a place of its own and turn a held write away.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() ->
            storedNames(kind).stream().filter(name -> name.startsWith("held-")).count() == MAX_WAITING);
        HttpResponse<String> probe = app.put("/api/v1/resources/" + kind + "/default/probe?waitFor=Synced&timeoutSeconds=1",
            body(Map.of("n", 0), Map.of()));
        assertThat(probe.statusCode()).as("one more than the cap: " + probe.body()).isEqualTo(429);

        Set<String> refused = ConcurrentHashMap.newKeySet();
        AtomicInteger other = new AtomicInteger();
        ExecutorService flood = Executors.newFixedThreadPool(16);
        long floodStart = System.nanoTime();
        for (int i = 0; i < 10_000; i++) {
            String name = "flood-" + i;
            flood.execute(() -> {
                HttpResponse<String> r = app.put("/api/v1/resources/" + kind + "/default/" + name
                    + "?waitFor=Synced&timeoutSeconds=1", body(Map.of("n", 1), Map.of()));
                if (r.statusCode() == 429 && r.headers().firstValue("Retry-After").isPresent()) {
                    refused.add(name);
                } else {
                    other.incrementAndGet();
                }
            });
        }
        flood.shutdown();
        assertThat(flood.awaitTermination(120, TimeUnit.SECONDS)).as("the flood is answered").isTrue();
        long floodMs = (System.nanoTime() - floodStart) / 1_000_000;

        assertThat(floodMs).as("the flood ended while the held writes still waited").isLessThan(MAX_TIMEOUT_SECONDS * 1000L);
        assertThat(refused).as("every write past the cap is refused; %d were not", other.get()).hasSize(10_000);
        for (CompletableFuture<HttpResponse<String>> f : held) {
            HttpResponse<String> r = f.get(MAX_TIMEOUT_SECONDS + 30, TimeUnit.SECONDS);
            assertThat(r.statusCode()).as("closed at its timeout: " + r.body()).isEqualTo(202);
            assertThat(r.headers().firstValue(WAIT)).hasValue("Timeout");
        }
        List<String> stored = storedNames(kind);
        assertThat(stored).as("a refused write stores nothing").doesNotContainAnyElementsOf(refused).doesNotContain("probe")
            .filteredOn(name -> name.startsWith("held-")).hasSize(MAX_WAITING);
        assertThat(app.put("/api/v1/resources/" + kind + "/default/after?waitFor=Synced&timeoutSeconds=0",
            body(Map.of("n", 1), Map.of())).statusCode()).as("places are given back").isEqualTo(202);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    /** The names of the stored resources of {@code kind}. */
    private static List<String> storedNames(String kind) {
        List<String> stored = new ArrayList<>();
        json(app.get("/api/v1/resources?kind=" + kind)).path("items")
            .forEach(item -> stored.add(item.path("metadata").path("name").asText()));
        return stored;
    }
}
