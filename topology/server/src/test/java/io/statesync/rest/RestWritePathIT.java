package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.schemas.Values;
import io.statesync.server.ServerConfig;
import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

/** The write path over real HTTP: server-side patches, create-only, dry runs and bulk writes. */
@ExtendWith(EmbeddedClusterExtension.class)
class RestWritePathIT {

    private static RestTestApp app;
    private static Map<String, Object> config;
    private static TopicNames topics;

    @BeforeAll
    static void start() throws Exception {
        String prefix = RestTestApp.prefix("rest-writes");
        config = RestTestApp.config("rest-writes", prefix);
        config.put(ServerConfig.HTTP_MAX_BODY_BYTES, 1_048_576);
        topics = new TopicNames(prefix);
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static String path(String name) {
        return "/api/v1/resources/WebApp/default/" + name;
    }

    private static String unique() {
        return "w-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static HttpResponse<String> mergePatch(String name, String patch, String... headers) {
        return app.send("PATCH", path(name), patch, "application/merge-patch+json", headers);
    }

    @Test
    void shouldNeverAnswer409ToAPatchWithoutAPreconditionWhileAnAgentReportsStatus() throws Exception {
        String name = unique();
        JsonNode created = json(app.put(path(name), body(Map.of("image", "nginx:1.20"), Map.of())));
        String uid = created.path("metadata").path("uid").asText();
        AtomicBoolean reporting = new AtomicBoolean(true);
        AppConfig appConfig = new AppConfig(config);
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try (InTestAgent agent = new InTestAgent(EmbeddedClusterExtension.bootstrapServers(), new TopologySerdes(appConfig), topics)) {
            Future<Integer> reporter = pool.submit(() -> report(agent, name, uid, reporting));
            List<Future<List<Integer>>> patchers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                patchers.add(pool.submit(() -> patchSeries(name, thread, 50)));
            }
            List<Integer> codes = new ArrayList<>();
            for (Future<List<Integer>> p : patchers) {
                codes.addAll(p.get());
            }
            reporting.set(false);
            assertThat(reporter.get()).as("status reports made while patching").isGreaterThan(20);
            assertThat(codes).hasSize(200).containsOnly(200);
        } finally {
            pool.shutdownNow();
        }
        JsonNode spec = json(app.get(path(name) + "?consistency=owner")).path("spec");
        for (int t = 0; t < 4; t++) {
            for (int i = 0; i < 50; i++) {
                assertThat(spec.path("t" + t + "p" + i).asInt(-1)).as("patch t%dp%d in the final spec", t, i).isEqualTo(i);
            }
        }
    }

    private static int report(InTestAgent agent, String name, String uid, AtomicBoolean reporting) throws InterruptedException {
        int n = 0;
        while (reporting.get()) {
            agent.report("WebApp/default/" + name, uid, 1, Values.fromJava(Map.of("image", "nginx:1.20", "beat", (long) n++)), null);
            Thread.sleep(3);
        }
        return n;
    }

    private static List<Integer> patchSeries(String name, int thread, int count) {
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            codes.add(mergePatch(name, "{\"spec\":{\"t" + thread + "p" + i + "\":" + i + "}}").statusCode());
        }
        return codes;
    }

    @Test
    void shouldShowThePatchOfTheLastCorrectionInTheDiff() throws Exception {
        String name = unique();
        JsonNode created = json(app.put(path(name), body(Map.of("image", "nginx:1.20", "replicas", 1), Map.of())));
        JsonNode create = json(app.get(path(name) + "/diff")).path("lastCorrection");
        assertThat(create.path("action").asText()).isEqualTo("CREATE");
        assertThat(create.path("patch")).extracting(op -> op.path("op").asText() + " " + op.path("path").asText())
            .containsExactlyInAnyOrder("SET image", "SET replicas");
        String uid = created.path("metadata").path("uid").asText();
        try (InTestAgent agent = new InTestAgent(EmbeddedClusterExtension.bootstrapServers(),
                new TopologySerdes(new AppConfig(config)), topics)) {
            // Only the report below acts on the key: an agent applying corrections would change what is observed.
            agent.hold();
            agent.report("WebApp/default/" + name, uid, 1, Values.fromJava(Map.of("image", "nginx:1.19", "replicas", 1L)), null);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                json(app.get(path(name) + "/diff")).path("lastCorrection").path("action").asText().equals("UPDATE"));
        }
        JsonNode update = json(app.get(path(name) + "/diff")).path("lastCorrection");
        assertThat(update.path("patch")).as(update.toString()).singleElement().satisfies(op -> {
            assertThat(op.path("op").asText()).isEqualTo("SET");
            assertThat(op.path("path").asText()).isEqualTo("image");
            assertThat(op.path("value").asText()).isEqualTo("nginx:1.20");
        });
    }

    @Test
    void shouldApplyAJsonPatchAndAnswer422WhenItDoesNotApplyAnd400WhenItIsNoPatch() {
        String name = unique();
        app.put(path(name), body(Map.of("replicas", 2, "ports", List.of(80)), Map.of()));
        HttpResponse<String> ok = app.send("PATCH", path(name), "[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":2},"
            + "{\"op\":\"add\",\"path\":\"/spec/ports/-\",\"value\":443}]", "application/json-patch+json");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(json(ok).path("spec").path("ports").toString()).isEqualTo("[80,443]");
        assertThat(json(ok).path("metadata").path("generation").asLong()).isEqualTo(2);

        HttpResponse<String> failedTest = app.send("PATCH", path(name), "[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":9}]",
            "application/json-patch+json");
        assertThat(failedTest.statusCode()).as(failedTest.body()).isEqualTo(422);
        assertThat(json(failedTest).path("reason").asText()).isEqualTo("Invalid");
        assertThat(app.send("PATCH", path(name), "[{\"op\":\"remove\",\"path\":\"/spec/nothing\"}]",
            "application/json-patch+json").statusCode()).isEqualTo(422);
        HttpResponse<String> noPatch = app.send("PATCH", path(name), "{\"op\":\"add\"}", "application/json-patch+json");
        assertThat(noPatch.statusCode()).isEqualTo(400);
        assertThat(json(noPatch).path("message").asText()).isNotEmpty();
        assertThat(app.send("PATCH", path(unique()), "{\"spec\":{}}", "application/merge-patch+json").statusCode()).isEqualTo(404);
        assertThat(app.send("PATCH", path(name), "{}", "application/strategic-merge-patch+json").statusCode()).isEqualTo(415);
    }

    @Test
    void shouldMakeAPatchWithIfMatchOrAResourceVersionACompareAndSwap() {
        String name = unique();
        String v1 = json(app.put(path(name), body(Map.of("replicas", 1), Map.of()))).path("metadata").path("resourceVersion").asText();
        mergePatch(name, "{\"spec\":{\"replicas\":2}}");
        assertThat(mergePatch(name, "{\"spec\":{\"replicas\":3}}", "If-Match", "\"" + v1 + "\"").statusCode()).isEqualTo(409);
        assertThat(mergePatch(name, "{\"metadata\":{\"resourceVersion\":\"" + v1 + "\"},\"spec\":{\"replicas\":3}}").statusCode())
            .isEqualTo(409);
        String current = json(app.get(path(name) + "?consistency=owner")).path("metadata").path("resourceVersion").asText();
        HttpResponse<String> ok = mergePatch(name, "{\"metadata\":{\"resourceVersion\":\"" + current + "\"},\"spec\":{\"replicas\":3}}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(json(ok).path("spec").path("replicas").asInt()).isEqualTo(3);
    }

    @Test
    void shouldLetExactlyOneOfTwoConcurrentCreatesOfANameSucceed() throws Exception {
        for (int round = 0; round < 10; round++) {
            String name = unique();
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<HttpResponse<String>> post = CompletableFuture.supplyAsync(() -> {
                await(go);
                return app.send("POST", "/api/v1/resources/WebApp/default", Map.of("metadata", Map.of("name", name),
                    "spec", Map.of("by", "post")), "application/json");
            });
            CompletableFuture<HttpResponse<String>> put = CompletableFuture.supplyAsync(() -> {
                await(go);
                return app.send("PUT", path(name), body(Map.of("by", "put"), Map.of()), "application/json", "If-None-Match", "*");
            });
            go.countDown();
            List<HttpResponse<String>> answers = List.of(post.get(), put.get());
            assertThat(answers).extracting(HttpResponse::statusCode).containsExactlyInAnyOrder(201, 409);
            HttpResponse<String> loser = answers.stream().filter(r -> r.statusCode() == 409).findFirst().orElseThrow();
            assertThat(json(loser).path("reason").asText()).isEqualTo("AlreadyExists");
            String winner = answers.get(0).statusCode() == 201 ? "post" : "put";
            assertThat(json(app.get(path(name) + "?consistency=owner")).path("spec").path("by").asText()).isEqualTo(winner);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void shouldRefuseAPostWithoutANameOrWithAPathThatContradictsTheBody() {
        assertThat(app.send("POST", "/api/v1/resources/WebApp/default", Map.of("spec", Map.of()), "application/json").statusCode())
            .isEqualTo(400);
        assertThat(app.send("POST", "/api/v1/resources/WebApp/default", Map.of("metadata", Map.of("name", "x",
            "namespace", "other"), "spec", Map.of()), "application/json").statusCode()).isEqualTo(400);
    }

    @Test
    void shouldChangeNothingOnAnyTopicOnADryRun() throws Exception {
        String existing = unique();
        JsonNode before = json(app.put(path(existing), body(Map.of("replicas", 1), Map.of())));
        String fresh = unique();
        Map<TopicPartition, Long> desiredEnd = endOffsets(topics.desired());

        HttpResponse<String> create = app.send("PUT", path(fresh) + "?dryRun=All", body(Map.of("replicas", 1), Map.of()), "application/json");
        assertThat(create.statusCode()).as(create.body()).isEqualTo(201);
        assertThat(json(create).path("metadata").path("generation").asLong()).isEqualTo(1);
        HttpResponse<String> update = app.send("PUT", path(existing) + "?dryRun=All", body(Map.of("replicas", 4), Map.of()),
            "application/json");
        assertThat(update.statusCode()).as(update.body()).isEqualTo(200);
        JsonNode dry = json(update);
        assertThat(dry.path("metadata").path("generation").asLong()).isEqualTo(2);
        assertThat(dry.path("dryRun").path("specChanges").get(0).path("path").asText()).isEqualTo("replicas");
        assertThat(dry.path("dryRun").path("specChanges").get(0).path("old").asInt()).isEqualTo(1);
        assertThat(dry.path("dryRun").path("specChanges").get(0).path("new").asInt()).isEqualTo(4);
        assertThat(app.send("PATCH", path(existing) + "?dryRun=All", "{\"spec\":{\"replicas\":7}}", "application/merge-patch+json")
            .statusCode()).isEqualTo(200);
        assertThat(app.send("POST", "/api/v1/resources/WebApp/default?dryRun=All", Map.of("metadata", Map.of("name", existing),
            "spec", Map.of()), "application/json").statusCode()).isEqualTo(409);
        assertThat(app.send("DELETE", path(existing) + "?dryRun=All", null, null).statusCode()).isEqualTo(200);
        assertThat(app.send("DELETE", path(fresh) + "?dryRun=All", null, null).statusCode()).isEqualTo(404);
        assertThat(bulk(List.of(item("put", fresh, Map.of("a", 1), null)), "?dryRun=All").path("items").get(0).path("code").asInt())
            .isEqualTo(201);
        assertThat(app.send("PUT", path(existing) + "?dryRun=Some", body(Map.of(), Map.of()), "application/json").statusCode())
            .isEqualTo(400);

        Thread.sleep(500);
        assertThat(endOffsets(topics.desired())).isEqualTo(desiredEnd);
        assertThat(app.get(path(fresh) + "?consistency=owner").statusCode()).isEqualTo(404);
        JsonNode after = json(app.get(path(existing) + "?consistency=owner"));
        assertThat(after.path("metadata").path("generation").asLong()).isEqualTo(1);
        assertThat(after.path("spec").path("replicas").asInt()).isEqualTo(1);
        assertThat(after.path("metadata").path("deletionTimestamp").isNull()).isTrue();
        for (String topic : List.of(topics.desired(), topics.resources(), topics.events(), topics.corrections())) {
            assertThat(keys(topic)).as(topic).doesNotContain("WebApp/default/" + fresh);
        }
    }

    @Test
    void shouldAnswerEveryDocumentOfABulkWriteOnItsOwn() {
        String run = unique();
        Map<String, String> versions = new HashMap<>();
        List<Map<String, Object>> setup = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            setup.add(item("put", run + "-" + i, Map.of("v", 0), null));
        }
        for (JsonNode r : bulk(setup, "").path("items")) {
            assertThat(r.path("code").asInt()).as(r.toString()).isEqualTo(201);
            versions.put(r.path("key").asText(), r.path("object").path("metadata").path("resourceVersion").asText());
        }
        List<Map<String, Object>> items = new ArrayList<>();
        Set<Integer> mustConflict = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            boolean stale = i % 2 == 1;
            String version = stale ? "999999999" : versions.get("WebApp/default/" + run + "-" + i);
            if (stale) {
                mustConflict.add(items.size());
            }
            items.add(item("put", run + "-" + i, Map.of("v", 1), version));
        }
        for (int i = 100; i < 995; i++) {
            items.add(item("put", run + "-" + i, Map.of("v", 1), null));
        }
        items.add(item("create", run + "-0", Map.of("v", 2), null));
        items.add(Map.of("op", "put", "object", Map.of("kind", "webapp", "metadata", Map.of("namespace", "default", "name", "x"))));
        items.add(Map.of("op", "explode", "object", Map.of("kind", "WebApp", "metadata", Map.of("namespace", "default", "name", "y"))));
        items.add(Map.of("op", "patch", "patchType", "json", "patch", List.of(Map.of("op", "test", "path", "/spec/v", "value", 9)),
            "object", Map.of("kind", "WebApp", "metadata", Map.of("namespace", "default", "name", run + "-2"))));
        items.add(Map.of("op", "patch", "patch", Map.of("spec", Map.of("extra", true)),
            "object", Map.of("kind", "WebApp", "metadata", Map.of("namespace", "default", "name", run + "-4"))));
        assertThat(items).hasSize(1000);

        JsonNode result = bulk(items, "");
        JsonNode results = result.path("items");
        assertThat(results).hasSize(1000);
        for (int i = 0; i < 1000; i++) {
            JsonNode r = results.get(i);
            assertThat(r.path("index").asInt()).isEqualTo(i);
            int code = r.path("code").asInt();
            if (mustConflict.contains(i)) {
                assertThat(code).as(r.toString()).isEqualTo(409);
                assertThat(r.path("error").path("resourceVersion").asText()).isEqualTo(versions.get(r.path("key").asText()));
            } else if (i < 100) {
                assertThat(code).as(r.toString()).isEqualTo(200);
            } else if (i < 995) {
                assertThat(code).as(r.toString()).isEqualTo(201);
            }
        }
        assertThat(results.get(995).path("error").path("reason").asText()).isEqualTo("AlreadyExists");
        assertThat(results.get(996).path("code").asInt()).isEqualTo(400);
        assertThat(results.get(997).path("code").asInt()).isEqualTo(400);
        assertThat(results.get(998).path("code").asInt()).isEqualTo(422);
        assertThat(results.get(999).path("code").asInt()).as(results.get(999).toString()).isEqualTo(200);
        assertThat(result.path("summary").path("failed").asInt()).isEqualTo(mustConflict.size() + 4);
        assertThat(json(app.get(path(run + "-1") + "?consistency=owner")).path("spec").path("v").asInt()).isEqualTo(0);
        assertThat(json(app.get(path(run + "-2") + "?consistency=owner")).path("spec").path("v").asInt()).isEqualTo(1);
        assertThat(json(app.get(path(run + "-4") + "?consistency=owner")).path("spec").path("extra").asBoolean()).isTrue();
        assertThat(json(app.get(path(run + "-500") + "?consistency=owner")).path("spec").path("v").asInt()).isEqualTo(1);
    }

    @Test
    void shouldRefuseABulkWriteBeyondItsLimitOrWithoutItems() {
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            tooMany.add(item("put", "n" + i, Map.of(), null));
        }
        assertThat(app.send("POST", "/api/v1/bulk", Map.of("items", tooMany), "application/json").statusCode()).isEqualTo(400);
        assertThat(app.send("POST", "/api/v1/bulk", Map.of("kind", "BulkWrite"), "application/json").statusCode()).isEqualTo(400);
    }

    private static Map<String, Object> item(String op, String name, Map<String, Object> spec, String resourceVersion) {
        Map<String, Object> meta = new HashMap<>(Map.of("namespace", "default", "name", name));
        if (resourceVersion != null) {
            meta.put("resourceVersion", resourceVersion);
        }
        return Map.of("op", op, "object", Map.of("kind", "WebApp", "metadata", meta, "spec", spec));
    }

    private static JsonNode bulk(List<Map<String, Object>> items, String query) {
        HttpResponse<String> r = app.send("POST", "/api/v1/bulk" + query, Map.of("apiVersion", "statesync.io/v1",
            "kind", "BulkWrite", "items", items), "application/json");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json(r);
    }

    private static KafkaConsumer<String, byte[]> consumer() {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers()),
            new StringDeserializer(), new ByteArrayDeserializer());
    }

    private static Map<TopicPartition, Long> endOffsets(String topic) {
        try (KafkaConsumer<String, byte[]> c = consumer()) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            return c.endOffsets(parts);
        }
    }

    private static Set<String> keys(String topic) {
        Set<String> keys = new HashSet<>();
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        try (KafkaConsumer<String, byte[]> c = consumer()) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> rec : c.poll(Duration.ofMillis(200))) {
                    seen.add(rec.key() == null ? "" : rec.key());
                }
            }
        }
        keys.addAll(seen);
        return keys;
    }
}
