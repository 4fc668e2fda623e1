package io.statesync.rest;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.cli.StatesyncCli;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.schemas.Values;
import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** Health rules and validation rules over real HTTP, on the embedded broker and registry. */
@ExtendWith(EmbeddedClusterExtension.class)
class RestHealthIT {

    private static final Map<String, Object> HEALTH_RULES = Map.of("healthRules", List.of(
        Map.of("status", "Degraded", "when", "has(observed.status.crashLooping) && observed.status.crashLooping > 0",
            "message", "pods crash-loop"),
        Map.of("status", "Progressing", "when", "observed.status.readyReplicas < desired.replicas", "message", "replicas starting"),
        Map.of("status", "Healthy", "when", "true", "message", "all replicas ready")));

    private static RestTestApp app;
    private static Map<String, Object> config;
    private static TopicNames topics;

    @BeforeAll
    static void start() throws Exception {
        String prefix = RestTestApp.prefix("rest-health");
        config = RestTestApp.config("rest-health", prefix);
        topics = new TopicNames(prefix);
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    /** A kind of its own per test, so that policies do not meet. */
    private static String kind() {
        return RestTestApp.uniqueKind("Hk");
    }

    private static void putPolicy(String kind, Map<String, Object> policy) {
        HttpResponse<String> r = app.put("/api/v1/kinds/" + kind, policy);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    @Test
    void shouldRefuseAKindPolicyWhoseRuleDoesNotCompileWithCelsError() {
        String kind = kind();

        HttpResponse<String> syntax = app.put("/api/v1/kinds/" + kind, Map.of("healthRules",
            List.of(Map.of("status", "Degraded", "when", "observed.status.restarts >"))));
        HttpResponse<String> notBool = app.put("/api/v1/kinds/" + kind, Map.of("validationRules", List.of(Map.of("rule", "'text'"))));
        HttpResponse<String> tooLong = app.put("/api/v1/kinds/" + kind, Map.of("validationRules",
            List.of(Map.of("rule", "true || ".repeat(1000) + "true"))));
        HttpResponse<String> badStatus = app.put("/api/v1/kinds/" + kind, Map.of("healthRules",
            List.of(Map.of("status", "Sleeping", "when", "true"))));

        assertThat(syntax.statusCode()).isEqualTo(400);
        assertThat(json(syntax).path("message").asText()).contains("health rule 1").contains("<input>");
        assertThat(notBool.statusCode()).as(notBool.body()).isEqualTo(400);
        assertThat(tooLong.statusCode()).as(tooLong.body()).isEqualTo(400);
        assertThat(badStatus.statusCode()).as(badStatus.body()).isEqualTo(400);
        assertThat(app.get("/api/v1/kinds/" + kind).statusCode()).as("nothing stored").isEqualTo(404);
    }

    @Test
    void shouldAnswer422WithEveryFailedRuleToWritesDryRunsAndBulkItems() {
        String kind = kind();
        putPolicy(kind, Map.of("validationRules", List.of(
            Map.of("rule", "self.replicas <= 10", "message", "at most 10 replicas", "fieldPath", "replicas"),
            Map.of("rule", "self.image.startsWith('nginx')", "message", "only nginx images", "fieldPath", "image"),
            Map.of("rule", "self.replicas >= oldSelf.replicas", "message", "replicas may not shrink", "fieldPath", "replicas"))));
        String path = "/api/v1/resources/" + kind + "/default/shop";
        Map<String, Object> bad = body(Map.of("image", "httpd", "replicas", 30), Map.of());

        HttpResponse<String> write = app.put(path, bad);
        HttpResponse<String> dryRun = app.send("PUT", path + "?dryRun=All", bad, "application/json");
        JsonNode bulk = json(app.send("POST", "/api/v1/bulk", Map.of("items", List.of(Map.of("op", "put", "object",
            Map.of("kind", kind, "metadata", Map.of("namespace", "default", "name", "shop"), "spec", Map.of("image", "httpd", "replicas", 1))))),
            "application/json"));

        assertThat(write.statusCode()).as(write.body()).isEqualTo(422);
        assertThat(json(write).path("reason").asText()).isEqualTo("ValidationFailed");
        assertThat(json(write).path("message").asText())
            .isEqualTo("spec.replicas: at most 10 replicas; spec.image: only nginx images");
        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(422);
        assertThat(bulk.path("items").get(0).path("code").asInt()).as(bulk.toString()).isEqualTo(422);
        assertThat(app.get(path).statusCode()).as("nothing stored").isEqualTo(404);

        assertThat(app.put(path, body(Map.of("image", "nginx:1", "replicas", 5), Map.of())).statusCode()).isEqualTo(201);
        HttpResponse<String> shrink = app.put(path, body(Map.of("image", "nginx:1", "replicas", 3), Map.of()));
        assertThat(shrink.statusCode()).isEqualTo(422);
        assertThat(json(shrink).path("message").asText()).isEqualTo("spec.replicas: replicas may not shrink");
        assertThat(json(app.get(path + "?consistency=owner")).path("spec").path("replicas").asInt()).isEqualTo(5);
    }

    @Test
    void shouldGoProgressingThenHealthyThenDegradedAsReadyReplicasClimbAndDrop() throws Exception {
        String kind = kind();
        putPolicy(kind, HEALTH_RULES);
        String key = kind + "/default/shop";
        String path = "/api/v1/resources/" + key;
        Map<String, Object> spec = Map.of("image", "nginx:1", "replicas", 3L);
        JsonNode created = json(app.put(path, body(spec, Map.of())));
        assertThat(created.path("status").path("health").path("status").asText()).isEqualTo("Missing");
        String uid = created.path("metadata").path("uid").asText();

        try (InTestAgent agent = new InTestAgent(EmbeddedClusterExtension.bootstrapServers(),
                new TopologySerdes(new AppConfig(config)), topics);
             SseClient watch = SseClient.open(app.base, "/api/v1/watch?kind=" + kind + "&health=Degraded", RestTestApp.WRITER)) {
            // Only this test reports, with the run-time status: the agent's own loop would answer corrections without it.
            agent.hold();
            for (long ready = 1; ready <= 2; ready++) {
                agent.report(key, uid, 1, Values.fromJava(spec), Values.fromJava(Map.of("readyReplicas", ready)), null);
                awaitHealth(path, "Progressing");
            }
            agent.report(key, uid, 1, Values.fromJava(spec), Values.fromJava(Map.of("readyReplicas", 3L)), null);
            JsonNode healthy = awaitHealth(path, "Healthy");
            assertThat(healthy.path("status").path("syncStatus").asText()).isEqualTo("Synced");

            agent.report(key, uid, 1, Values.fromJava(spec), Values.fromJava(Map.of("readyReplicas", 2L, "crashLooping", 1L)), null);
            JsonNode degraded = awaitHealth(path, "Degraded");

            assertThat(degraded.path("status").path("syncStatus").asText()).as("Synced and Degraded at once").isEqualTo("Synced");
            assertThat(degraded.path("status").path("health").path("message").asText()).isEqualTo("pods crash-loop");
            assertThat(degraded.path("status").path("conditions").findValuesAsText("type")).contains("Healthy");
            assertThat(json(app.get("/api/v1/resources?kind=" + kind + "&health=Degraded")).path("items")).hasSize(1);
            assertThat(json(app.get("/api/v1/resources?kind=" + kind + "&health=Healthy")).path("items")).isEmpty();
            SseClient.Event added = nextObject(watch);
            assertThat(added.type()).isEqualTo("ADDED");
            assertThat(added.data().path("object").path("status").path("health").path("status").asText()).isEqualTo("Degraded");

            agent.report(key, uid, 1, Values.fromJava(spec), Values.fromJava(Map.of("readyReplicas", 3L)), null);
            awaitHealth(path, "Healthy");
            agent.report(key, uid, 1, Values.fromJava(spec), Values.fromJava(Map.of("readyReplicas", 2L, "crashLooping", 1L)), null);
            awaitHealth(path, "Degraded");
        }
        assertHealthHistory(path, key);
        assertResourceGaugeEqualsTheTopicAfterARestart();
    }

    /** The HealthChanged events, newest first, in the API and in describe; a repeated change is counted, not repeated. */
    private static void assertHealthHistory(String path, String key) {
        // Before this test holds it, the agent may answer the CREATE without a status: Missing -> Unknown, then on.
        List<String> expected = List.of("Healthy -> Degraded: pods crash-loop", "Degraded -> Healthy: all replicas ready",
            "Progressing -> Healthy: all replicas ready");
        JsonNode[] health = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            health[0] = healthChanges(path);
            assertThat(health[0].size() >= 4 && health[0].get(0).path("count").asInt() == 2).as("%s", health[0]).isTrue();
        });
        assertThat(health[0]).extracting(e -> e.path("message").asText()).startsWith(expected.toArray(String[]::new));
        assertThat(health[0].get(3).path("message").asText()).endsWith("-> Progressing: replicas starting");
        assertThat(health[0].get(0).path("type").asText()).isEqualTo("Warning");
        assertThat(health[0].get(0).path("firstTimestamp").asText())
            .isLessThan(health[0].get(0).path("lastTimestamp").asText());

        StringWriter out = new StringWriter();
        CommandLine cli = StatesyncCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        assertThat(cli.execute("describe", key, "--server", app.base, "--token", RestTestApp.WRITER)).isZero();
        assertThat(out.toString()).containsPattern("Warning\\s+HealthChanged\\s+2\\s+.*Healthy -> Degraded")
            .containsPattern("Normal\\s+HealthChanged\\s+1\\s+.*-> Progressing: replicas starting");
    }

    private static JsonNode healthChanges(String path) {
        var items = new com.fasterxml.jackson.databind.node.ArrayNode(RestTestApp.JSON.getNodeFactory());
        json(app.get(path + "/events")).path("items").forEach(e -> {
            if (e.path("reason").asText().equals("HealthChanged")) {
                items.add(e);
            }
        });
        return items;
    }

    /** After a restart, statesync_resources counts exactly the resources the topic holds. */
    private static void assertResourceGaugeEqualsTheTopicAfterARestart() {
        app.close();
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
            assertThat(gaugeTotal()).isEqualTo(resourcesInTheTopic()).isPositive());
    }

    /** The keys whose latest record on statesync.resources is not a tombstone (every test here uses "default"). */
    private static long resourcesInTheTopic() {
        Map<String, Boolean> live = new java.util.HashMap<>();
        ResourceRecords.after(new AppConfig(config), new long[3], "default").forEach(r -> live.put(r.key(), r.value() != null));
        return live.values().stream().filter(Boolean::booleanValue).count();
    }

    private static long gaugeTotal() {
        long total = 0;
        for (String line : app.get("/metrics").body().split("\n")) {
            if (line.startsWith("statesync_resources{")) {
                total += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    private static JsonNode awaitHealth(String path, String health) {
        JsonNode[] last = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            last[0] = json(app.get(path + "?consistency=owner"));
            return health.equals(last[0].path("status").path("health").path("status").asText());
        });
        return last[0];
    }

    /** The next event that carries an object (the filtered watch also sends bookmarks). */
    private static SseClient.Event nextObject(SseClient watch) throws InterruptedException {
        for (int i = 0; i < 20; i++) {
            SseClient.Event e = watch.next(Duration.ofSeconds(10));
            if (e == null) {
                break;
            }
            if (!"BOOKMARK".equals(e.type())) {
                return e;
            }
        }
        throw new AssertionError("no object on the watch");
    }
}
