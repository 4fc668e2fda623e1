package io.statesync.kube;

import static io.statesync.kube.KubeTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Kubernetes' own Java client (fabric8) against a real instance: CRUD, preconditions and Status errors. */
@ExtendWith(EmbeddedClusterExtension.class)
class KubeClientIT {

    private static final int READER_WATCHES = 3;
    private static KubeTestApp app;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> config = KubeTestApp.config("kube-client");
        // Small enough that one test's dozen 8 KB objects pass it: lists without limit are refused, lists with one paged.
        config.put(io.statesync.server.ServerConfig.LIST_MAX_BYTES, 65_536L);
        // The reader's token holds this many watches at most; the tests watch with the writer's token otherwise.
        config.put(io.statesync.server.ServerConfig.WATCH_MAX_OPEN_PER_TOKEN, READER_WATCHES);
        app = KubeTestApp.start(config);
        client = KubeTestApp.client(app.base(), "default");
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (app != null) {
            app.close();
        }
    }

    /** A kind of its own per test, made known to discovery by its kind policy. */
    private static String kind() {
        String kind = "Kc" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        app.putKind(kind, Map.of());
        return kind;
    }

    private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
        of(String kind) {
        return client.genericKubernetesResources("statesync.io/v1", kind);
    }

    private static GenericKubernetesResource object(String kind, String name, Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder().withApiVersion("statesync.io/v1").withKind(kind)
            .withNewMetadata().withName(name).withNamespace("default").addToLabels("app", "shop").endMetadata()
            .addToAdditionalProperties("spec", spec).build();
    }

    @Test
    void shouldCreateGetUpdatePatchListAndDeleteWithTheKubernetesClient() {
        String kind = kind();

        GenericKubernetesResource created = of(kind).inNamespace("default").resource(object(kind, "shop",
            Map.of("image", "nginx:1.21", "replicas", 2))).create();
        GenericKubernetesResource read = of(kind).inNamespace("default").withName("shop").get();
        read.setAdditionalProperty("spec", Map.of("image", "nginx:1.22", "replicas", 2));
        GenericKubernetesResource updated = of(kind).inNamespace("default").resource(read).update();
        GenericKubernetesResource patched = of(kind).inNamespace("default").withName("shop")
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":3}}");
        GenericKubernetesResource jsonPatched = of(kind).inNamespace("default").withName("shop")
            .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":4}]");
        List<GenericKubernetesResource> listed = of(kind).inNamespace("default").withLabel("app", "shop").list().getItems();
        List<GenericKubernetesResource> none = of(kind).inNamespace("default").withLabel("app", "other").list().getItems();
        List<GenericKubernetesResource> everywhere = of(kind).inAnyNamespace().list().getItems();

        assertThat(created.getMetadata().getUid()).isNotEmpty();
        assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
        assertThat(created.getMetadata().getCreationTimestamp()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(read.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
        assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);
        assertThat(spec(updated)).containsEntry("image", "nginx:1.22");
        assertThat(spec(patched)).containsEntry("replicas", 3).containsEntry("image", "nginx:1.22");
        assertThat(spec(jsonPatched)).containsEntry("replicas", 4);
        assertThat(listed).extracting(o -> o.getMetadata().getName()).containsExactly("shop");
        assertThat(none).isEmpty();
        assertThat(everywhere).extracting(o -> o.getMetadata().getName()).containsExactly("shop");
        assertThat(of(kind).inNamespace("default").withName("shop").delete()).hasSize(1);
        assertThat(of(kind).inNamespace("default").withName("missing").get()).isNull();
    }

    @Test
    void shouldServerSideApplyWithAConflictForAnotherManagerAndTakeTheFieldWhenForced() {
        String kind = kind();
        GenericKubernetesResource mine = object(kind, "ssa", Map.of("image", "nginx:1", "replicas", 2));
        GenericKubernetesResource theirs = object(kind, "ssa", Map.of("replicas", 5));

        GenericKubernetesResource created = of(kind).inNamespace("default").resource(mine).fieldManager("deployer")
            .serverSideApply();
        assertThatThrownBy(() -> of(kind).inNamespace("default").resource(theirs).fieldManager("scaler").serverSideApply())
            .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                assertThat(e.getCode()).isEqualTo(409);
                assertThat(e.getStatus().getDetails().getCauses()).singleElement().satisfies(c -> {
                    assertThat(c.getReason()).isEqualTo("FieldManagerConflict");
                    assertThat(c.getField()).isEqualTo(".spec.replicas");
                    assertThat(c.getMessage()).isEqualTo("conflict with \"deployer\"");
                });
            });
        GenericKubernetesResource forced = of(kind).inNamespace("default").resource(theirs).fieldManager("scaler")
            .forceConflicts().serverSideApply();

        assertThat(spec(created)).containsEntry("replicas", 2);
        assertThat(spec(forced)).containsEntry("replicas", 5).containsEntry("image", "nginx:1");
        assertThat(forced.getMetadata().getManagedFields()).extracting(m -> m.getManager() + "/" + m.getOperation())
            .containsExactlyInAnyOrder("deployer/Apply", "scaler/Apply");
    }

    @Test
    void shouldNameACreatedObjectFromItsGenerateName() {
        String kind = kind();
        GenericKubernetesResource template = new GenericKubernetesResourceBuilder().withApiVersion("statesync.io/v1")
            .withKind(kind).withNewMetadata().withGenerateName("job-").withNamespace("default").endMetadata()
            .addToAdditionalProperties("spec", Map.of("n", 1)).build();

        GenericKubernetesResource first = of(kind).inNamespace("default").resource(template).create();
        GenericKubernetesResource second = of(kind).inNamespace("default").resource(template).create();

        assertThat(first.getMetadata().getName()).matches("job-[bcdfghjklmnpqrstvwxz2456789]{5}");
        assertThat(second.getMetadata().getName()).startsWith("job-").isNotEqualTo(first.getMetadata().getName());
        assertThat(of(kind).inNamespace("default").list().getItems()).extracting(o -> o.getMetadata().getName())
            .containsExactlyInAnyOrder(first.getMetadata().getName(), second.getMetadata().getName());
    }

    @Test
    void shouldCascadeADeleteToTheDependentsByItsPropagationPolicy() {
        String kind = kind();
        var objects = of(kind).inNamespace("default");
        GenericKubernetesResource orphaning = objects.resource(object(kind, "owner-orphan", Map.of("n", 1))).create();
        GenericKubernetesResource collecting = objects.resource(object(kind, "owner-background", Map.of("n", 1))).create();
        objects.resource(dependent(kind, "child-orphan", orphaning)).create();
        objects.resource(dependent(kind, "child-background", collecting)).create();

        objects.withName("owner-orphan").withPropagationPolicy(DeletionPropagation.ORPHAN).delete();
        objects.withName("owner-background").withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();

        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(objects.withName("child-background").get()).isNull();
            GenericKubernetesResource orphan = objects.withName("child-orphan").get();
            assertThat(orphan).isNotNull();
            assertThat(orphan.getMetadata().getOwnerReferences()).isNullOrEmpty();
        });
    }

    private static GenericKubernetesResource dependent(String kind, String name, GenericKubernetesResource owner) {
        GenericKubernetesResource d = object(kind, name, Map.of("n", 1));
        d.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("statesync.io/v1")
            .withKind(kind).withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid())
            .withController(true).withBlockOwnerDeletion(true).build()));
        return d;
    }

    @Test
    void shouldAnswerConflictToAnUpdateWithAStaleResourceVersion() {
        String kind = kind();
        of(kind).inNamespace("default").resource(object(kind, "cas", Map.of("n", 1))).create();
        GenericKubernetesResource stale = of(kind).inNamespace("default").withName("cas").get();
        GenericKubernetesResource fresh = of(kind).inNamespace("default").withName("cas").get();
        fresh.setAdditionalProperty("spec", Map.of("n", 2));
        of(kind).inNamespace("default").resource(fresh).update();

        stale.setAdditionalProperty("spec", Map.of("n", 3));

        assertThatThrownBy(() -> of(kind).inNamespace("default").resource(stale).update())
            .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                assertThat(e.getCode()).isEqualTo(409);
                assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
            });
        assertThatThrownBy(() -> of(kind).inNamespace("default").resource(object(kind, "cas", Map.of("n", 9))).create())
            .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists"));
        assertThat(spec(of(kind).inNamespace("default").withName("cas").get())).containsEntry("n", 2);
    }

    @Test
    void shouldAnswerEveryErrorAsAKubernetesStatus() {
        String kind = kind();
        String plural = kind.toLowerCase() + "s";
        String path = "/apis/statesync.io/v1/namespaces/default/" + plural;
        app.send("POST", path, Map.of("apiVersion", "statesync.io/v1", "kind", kind, "metadata", Map.of("name", "s"),
            "spec", Map.of("n", 1)), "application/json");

        assertStatus(app.send("GET", path + "/missing", null, null), 404, "NotFound");
        assertStatus(app.send("PUT", path + "/missing", Map.of("apiVersion", "statesync.io/v1", "kind", kind,
            "metadata", Map.of("name", "missing"), "spec", Map.of("n", 1)), "application/json"), 404, "NotFound");
        assertStatus(app.send("PATCH", path + "/s", "{}", "application/apply-patch+yaml"), 422, "Invalid");
        assertStatus(app.send("PATCH", path + "/s", "{}", "application/strategic-merge-patch+json"), 415, "UnsupportedMediaType");
        assertStatus(app.send("PUT", path + "/missing/status", "{}", "application/json"), 404, "NotFound");
        assertStatus(app.send("GET", path + "?watch=true&resourceVersion=notatoken&timeoutSeconds=1", null, null), 200, null);
        assertStatus(app.send("POST", path, Map.of("kind", kind, "metadata", Map.of("name", "Bad_Name")), "application/json"), 422, "Invalid");
        assertStatus(app.send("GET", "/apis/statesync.io/v1/namespaces/default/nosuchthings", null, null), 404, "NotFound");
        assertThat(json(app.send("GET", path + "/s/status", null, null)).path("status").has("syncStatus")).isTrue();
    }

    @Test
    void shouldListPagesAndSelectByFieldsAndWatchWithInitialEvents() {
        String kind = kind();
        String path = "/apis/statesync.io/v1/namespaces/default/" + kind.toLowerCase() + "s";
        for (String name : List.of("a", "b", "c")) {
            app.send("POST", path, Map.of("kind", kind, "metadata", Map.of("name", name), "spec", Map.of("n", 1)), "application/json");
        }

        JsonNode first = json(app.send("GET", path + "?limit=2", null, null));
        JsonNode second = json(app.send("GET", path + "?limit=2&continue=" + first.path("metadata").path("continue").asText(), null, null));
        JsonNode byName = json(app.send("GET", path + "?fieldSelector=metadata.name%3Db", null, null));
        JsonNode notB = json(app.send("GET", path + "?fieldSelector=metadata.name!%3Db,status.syncStatus!%3DSynced", null, null));
        JsonNode table = json(app.send("GET", path + "?includeObject=None", null, null,
            "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"));
        String[] watch = app.send("GET", path + "?watch=1&sendInitialEvents=true&allowWatchBookmarks=true"
            + "&resourceVersionMatch=NotOlderThan&timeoutSeconds=1", null, null).body().split("\n");

        assertThat(first.path("kind").asText()).isEqualTo(kind + "List");
        assertThat(first.path("items")).extracting(i -> i.path("metadata").path("name").asText()).containsExactly("a", "b");
        assertThat(second.path("items")).extracting(i -> i.path("metadata").path("name").asText()).containsExactly("c");
        assertThat(second.path("metadata").has("continue")).isFalse();
        assertThat(byName.path("items")).extracting(i -> i.path("metadata").path("name").asText()).containsExactly("b");
        assertThat(notB.path("items")).extracting(i -> i.path("metadata").path("name").asText()).containsExactly("a", "c");
        assertThat(table.path("kind").asText()).isEqualTo("Table");
        assertThat(table.path("columnDefinitions")).extracting(c -> c.path("name").asText())
            .containsExactly("Name", "Sync", "Health", "Gen", "Observed", "Age", "Reason");
        assertThat(table.path("rows").get(0).has("object")).isFalse();
        assertThat(watch).hasSizeGreaterThanOrEqualTo(4);
        assertThat(List.of(watch).subList(0, 3)).allSatisfy(l -> assertThat(l).startsWith("{\"type\":\"ADDED\""));
        assertThat(watch[3]).contains("\"type\":\"BOOKMARK\"").contains("\"k8s.io/initial-events-end\":\"true\"");
    }

    @Test
    void shouldDryRunCreatesCheckDeletePreconditionsAndDeleteCollections() {
        String kind = kind();
        String path = "/apis/statesync.io/v1/namespaces/default/" + kind.toLowerCase() + "s";
        for (String name : List.of("a", "b", "c")) {
            app.send("POST", path, Map.of("kind", kind, "metadata", Map.of("name", name, "labels", Map.of("app", name.equals("c") ? "y" : "x")),
                "spec", Map.of("n", 1)), "application/json");
        }

        HttpResponse<String> dryCreate = app.send("POST", path + "?dryRun=All", Map.of("kind", kind, "metadata", Map.of("name", "d"),
            "spec", Map.of("n", 1)), "application/json");
        HttpResponse<String> afterDryRun = app.send("GET", path + "/d", null, null);
        HttpResponse<String> wrongUid = app.send("DELETE", path + "/b", Map.of("kind", "DeleteOptions", "apiVersion", "v1",
            "preconditions", Map.of("uid", "not-the-uid")), "application/json");
        HttpResponse<String> badPolicy = app.send("DELETE", path + "/b", Map.of("propagationPolicy", "Sideways"), "application/json");
        HttpResponse<String> collection = app.send("DELETE", path + "?labelSelector=app%3Dx", null, null);
        JsonNode left = json(app.send("GET", path, null, null));

        assertThat(dryCreate.statusCode()).as(dryCreate.body()).isEqualTo(201);
        assertThat(json(dryCreate).path("metadata").path("name").asText()).isEqualTo("d");
        assertStatus(afterDryRun, 404, "NotFound");
        assertStatus(wrongUid, 409, "Conflict");
        assertStatus(badPolicy, 422, "Invalid");
        assertThat(collection.statusCode()).as(collection.body()).isEqualTo(200);
        assertThat(json(collection).path("items")).extracting(i -> i.path("metadata").path("name").asText()).containsExactly("a", "b");
        assertThat(left.path("items")).extracting(i -> i.path("metadata").path("name").asText()).containsExactly("c");
    }

    @Test
    void shouldAnswerUnauthorizedAndForbiddenAsKubernetesStatus() {
        String kind = kind();
        KubernetesClient reader = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
            new io.fabric8.kubernetes.client.ConfigBuilder(io.fabric8.kubernetes.client.Config.empty()).withMasterUrl(app.base())
                .withOauthToken(KubeTestApp.READER).withNamespace("default").build()).build();
        KubernetesClient nobody = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
            new io.fabric8.kubernetes.client.ConfigBuilder(io.fabric8.kubernetes.client.Config.empty()).withMasterUrl(app.base())
                .withOauthToken("wrong").withNamespace("default").build()).build();
        try (reader; nobody) {
            assertThatThrownBy(() -> reader.genericKubernetesResources("statesync.io/v1", kind).inNamespace("default")
                .resource(object(kind, "r", Map.of())).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
            HttpResponse<String> unauthorized = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(app.base() + "/apis/statesync.io/v1")).header("Authorization", "Bearer wrong").build(),
                HttpResponse.BodyHandlers.ofString());
            assertStatus(unauthorized, 401, "Unauthorized");
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldAnswerTwoConcurrentUpdatesThatShareARequestIdEachWithItsOwnOutcome() throws Exception {
        String kind = kind();
        String path = "/apis/statesync.io/v1/namespaces/default/" + kind.toLowerCase() + "s";
        String shared = "shared-" + UUID.randomUUID();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 5; round++) {
                String name = "s" + round;
                String stale = json(app.send("POST", path, Map.of("kind", kind, "metadata", Map.of("name", name),
                    "spec", Map.of("n", 0)), "application/json")).path("metadata").path("resourceVersion").asText();
                String fresh = json(app.send("PUT", path + "/" + name, Map.of("kind", kind, "metadata", Map.of("name", name),
                    "spec", Map.of("n", 1)), "application/json")).path("metadata").path("resourceVersion").asText();
                java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(2);
                var ok = pool.submit(() -> {
                    barrier.await();
                    return app.send("PUT", path + "/" + name, Map.of("kind", kind, "metadata", Map.of("name", name,
                        "resourceVersion", fresh), "spec", Map.of("n", 2)), "application/json", "X-Request-Id", shared);
                });
                var conflict = pool.submit(() -> {
                    barrier.await();
                    return app.send("PUT", path + "/" + name, Map.of("kind", kind, "metadata", Map.of("name", name,
                        "resourceVersion", stale), "spec", Map.of("n", -1)), "application/json", "X-Request-Id", shared);
                });
                assertThat(ok.get().statusCode()).as("round %d: %s", round, ok.get().body()).isEqualTo(200);
                assertThat(json(ok.get()).path("spec").path("n").asInt()).isEqualTo(2);
                assertStatus(conflict.get(), 409, "Conflict");
                assertThat(ok.get().headers().firstValue("X-Request-Id")).hasValue(shared);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldRefuseDuplicateKeysAndTrailingTokensWithABadRequestStatusAndStoreNothing() {
        String kind = kind();
        String path = "/apis/statesync.io/v1/namespaces/default/" + kind.toLowerCase() + "s";
        String object = "{\"apiVersion\": \"statesync.io/v1\", \"kind\": \"" + kind + "\", \"metadata\": {\"name\": \"dup\"}, ";

        HttpResponse<String> duplicate = app.send("POST", path, object + "\"spec\": {\"replicas\": 1, \"replicas\": 99}}",
            "application/json");
        assertStatus(duplicate, 400, "BadRequest");
        assertThat(json(duplicate).path("message").asText()).contains("Duplicate field 'replicas'");

        HttpResponse<String> trailing = app.send("PUT", path + "/dup", object + "\"spec\": {}} {\"spec\": {\"x\": 1}}",
            "application/json");
        assertStatus(trailing, 400, "BadRequest");
        assertThat(json(trailing).path("message").asText()).contains("Trailing token");

        HttpResponse<String> patch = app.send("PATCH", path + "/dup", "{\"spec\": {\"a\": 1, \"a\": 2}}",
            "application/merge-patch+json");
        assertStatus(patch, 400, "BadRequest");
        assertThat(app.send("GET", path + "/dup", null, null).statusCode()).isEqualTo(404);
    }

    private static void assertStatus(HttpResponse<String> r, int code, String reason) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(code);
        JsonNode body = json(code == 200 ? firstLine(r) : r);
        JsonNode status = code == 200 ? body.path("object") : body;
        assertThat(status.path("kind").asText()).as(r.body()).isEqualTo("Status");
        assertThat(status.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(status.path("status").asText()).isEqualTo("Failure");
        assertThat(status.path("reason").asText()).isEqualTo(reason == null ? "Expired" : reason);
        assertThat(status.path("code").asInt()).isEqualTo(reason == null ? 410 : code);
    }

    /** A watch's first event, as a response of its own. */
    static HttpResponse<String> firstLine(HttpResponse<String> r) {
        String line = r.body().split("\n", 2)[0];
        return new HttpResponse<>() {
            public int statusCode() { return r.statusCode(); }
            public java.net.http.HttpRequest request() { return r.request(); }
            public java.util.Optional<HttpResponse<String>> previousResponse() { return java.util.Optional.empty(); }
            public java.net.http.HttpHeaders headers() { return r.headers(); }
            public String body() { return line; }
            public java.util.Optional<javax.net.ssl.SSLSession> sslSession() { return java.util.Optional.empty(); }
            public java.net.URI uri() { return r.uri(); }
            public java.net.http.HttpClient.Version version() { return r.version(); }
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        return (Map<String, Object>) r.getAdditionalProperties().get("spec");
    }

    @Test
    void shouldRefuseAListPastListMaxBytesWithoutLimitPageItWithOneAndDeleteTheCollectionInPages() {
        String kind = kind();
        String blob = "x".repeat(8_000);
        for (int i = 0; i < 12; i++) {
            of(kind).inNamespace("default").resource(object(kind, "big-" + i, Map.of("blob", blob))).create();
        }
        assertThatThrownBy(() -> of(kind).inNamespace("default").list())
            .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                assertThat(e.getCode()).isEqualTo(400);
                assertThat(e.getStatus().getMessage()).contains("list.max.bytes").contains("send limit");
            });
        List<GenericKubernetesResource> all = new java.util.ArrayList<>();
        String next = null;
        int pages = 0;
        do {
            GenericKubernetesResourceList page = of(kind).inNamespace("default").list(
                new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(100L).withContinue(next).build());
            all.addAll(page.getItems());
            next = page.getMetadata().getContinue();
            pages++;
        } while (next != null && !next.isEmpty());
        assertThat(all).hasSize(12);
        assertThat(pages).isGreaterThan(1);
        // The initial events of a watch come a budget's page at a time too, and add up to every object once.
        String[] watch = app.send("GET", "/apis/statesync.io/v1/namespaces/default/" + kind.toLowerCase() + "s"
            + "?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=2",
            null, null).body().split("\n");
        List<String> added = java.util.Arrays.stream(watch).filter(l -> l.startsWith("{\"type\":\"ADDED\""))
            .map(l -> parse(l).path("object").path("metadata").path("name").asText()).toList();
        assertThat(added).hasSize(12).doesNotHaveDuplicates().isSorted();
        assertThat(watch[12]).contains("\"type\":\"BOOKMARK\"").contains("\"k8s.io/initial-events-end\":\"true\"");
        of(kind).inNamespace("default").delete();
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(of(kind).inNamespace("default")
            .list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(100L).build()).getItems()).isEmpty());
    }

    @Test
    void shouldAnswerABadLimitOrContinueOnTheEventListsWithABadRequestStatus() {
        for (String path : new String[] {"/api/v1/events?limit=abc", "/api/v1/namespaces/default/events?continue=not-a-token",
            "/apis/events.k8s.io/v1/events?limit=x", "/apis/events.k8s.io/v1/namespaces/default/events?continue=zz"}) {
            HttpResponse<String> r = app.send("GET", path, null, null);
            assertThat(r.statusCode()).as("%s: %s", path, r.body()).isEqualTo(400);
            assertThat(json(r).path("kind").asText()).isEqualTo("Status");
        }
        assertThat(app.send("GET", "/api/v1/events?limit=500", null, null).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAnswerTooManyRequestsAsAStatusToAWatchPastTheTokensCapAndAdmitOneOnceTheWatchesEnd() throws Exception {
        String path = "/apis/statesync.io/v1/namespaces/default/" + kind().toLowerCase() + "s?watch=1&timeoutSeconds=4";
        HttpClient http = HttpClient.newHttpClient();
        List<InputStream> open = new ArrayList<>();
        try {
            for (int i = 0; i < READER_WATCHES; i++) {
                HttpResponse<InputStream> w = http.send(readerWatch(path), HttpResponse.BodyHandlers.ofInputStream());
                assertThat(w.statusCode()).as("watch %d within the cap", i).isEqualTo(200);
                open.add(w.body());
            }
            HttpResponse<String> refused = http.send(readerWatch(path), HttpResponse.BodyHandlers.ofString());

            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            JsonNode status = KubeTestApp.JSON.readTree(refused.body());
            assertThat(status.path("kind").asText()).isEqualTo("Status");
            assertThat(status.path("reason").asText()).isEqualTo("TooManyRequests");
            assertThat(status.path("code").asInt()).isEqualTo(429);
        } finally {
            for (InputStream in : open) {
                in.close();
            }
        }
        // A silent Kubernetes watch (no bookmarks asked for) learns that its client left only when it next writes,
        // at the latest when its timeout ends it.
        Awaitility.await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            HttpResponse<InputStream> again = http.send(readerWatch(path.replace("=4", "=1")),
                HttpResponse.BodyHandlers.ofInputStream());
            again.body().close();
            assertThat(again.statusCode()).as("a watch once the others closed").isEqualTo(200);
        });
    }

    private static JsonNode parse(String line) {
        try {
            return KubeTestApp.JSON.readTree(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static HttpRequest readerWatch(String path) {
        return HttpRequest.newBuilder(URI.create(app.base() + path)).timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + KubeTestApp.READER).GET().build();
    }

    /**
     * An apply naming a resourceVersion creates a missing object, as the apiserver does (Java Operator SDK names "1"
     * to create a dependent only if absent), and is a precondition against a stored one.
     */
    @Test
    void shouldCreateAMissingObjectFromAnApplyNamingAResourceVersionAndHoldItAgainstAStoredOne() {
        String kind = kind();
        String path = "/apis/statesync.io/v1/namespaces/default/" + kind.toLowerCase() + "s/dep?fieldManager=op&force=true";
        String config = "{\"apiVersion\":\"statesync.io/v1\",\"kind\":\"" + kind
            + "\",\"metadata\":{\"name\":\"dep\",\"resourceVersion\":\"1\"},\"spec\":{\"n\":1}}";

        HttpResponse<String> created = app.send("PATCH", path, config, "application/apply-patch+yaml");
        String first = json(created).path("metadata").path("resourceVersion").asText();
        String again = config.replace("\"resourceVersion\":\"1\"", "\"resourceVersion\":\"" + first + "\"");
        HttpResponse<String> matching = app.send("PATCH", path, again.replace("\"n\":1", "\"n\":2"), "application/apply-patch+yaml");
        HttpResponse<String> stale = app.send("PATCH", path, again.replace("\"n\":1", "\"n\":3"), "application/apply-patch+yaml");

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(json(created).path("spec").path("n").asInt()).isEqualTo(1);
        assertThat(matching.statusCode()).as(matching.body()).isEqualTo(200);
        assertThat(stale.statusCode()).as("the object changed since: " + stale.body()).isEqualTo(409);
        assertThat(of(kind).withName("dep").get().getAdditionalProperties().get("spec")).isEqualTo(Map.of("n", 2));
    }

    /**
     * A JSON patch that sets metadata.resourceVersion is a compare-and-swap on it, as fabric8's edit and Java Operator
     * SDK's finalizer removal send it: a stale token is 409, the current one removes the finalizer.
     */
    @Test
    void shouldHoldAJsonPatchToTheResourceVersionItSets() {
        String kind = kind();
        GenericKubernetesResource r = of(kind).resource(new GenericKubernetesResourceBuilder().withApiVersion("statesync.io/v1")
            .withKind(kind).withNewMetadata().withName("fin").withFinalizers("example.com/cleanup").endMetadata()
            .addToAdditionalProperties("spec", Map.of("n", 1)).build()).create();
        String stale = r.getMetadata().getResourceVersion();
        of(kind).withName("fin").edit(g -> {
            g.getAdditionalProperties().put("spec", Map.of("n", 2));
            return g;
        });
        String path = "/apis/statesync.io/v1/namespaces/default/" + kind.toLowerCase() + "s/fin";
        String removeWith = "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"},"
            + "{\"op\":\"add\",\"path\":\"/metadata/resourceVersion\",\"value\":\"%s\"}]";

        HttpResponse<String> refused = app.send("PATCH", path, removeWith.formatted(stale), "application/json-patch+json");
        String current = of(kind).withName("fin").get().getMetadata().getResourceVersion();
        HttpResponse<String> removed = app.send("PATCH", path, removeWith.formatted(current), "application/json-patch+json");

        assertStatus(refused, 409, "Conflict");
        assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
        assertThat(json(removed).path("metadata").has("finalizers")).isFalse();
    }

    /** A write that waits for convergence on this API: 202 with the object in Kubernetes form at its timeout. */
    @Test
    void shouldAnswerAWriteThatWaitsForConvergence202AtItsTimeoutAndRefuseAnUnknownCondition() {
        String kind = kind();
        String collection = "/apis/statesync.io/v1/namespaces/default/" + kind.toLowerCase() + "s";
        String body = "{\"apiVersion\":\"statesync.io/v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\"w\"},"
            + "\"spec\":{\"n\":1}}";

        HttpResponse<String> waited = app.send("POST", collection + "?waitFor=Synced&timeoutSeconds=1", body, "application/json");
        HttpResponse<String> unknown = app.send("POST", collection + "?waitFor=Ready", body.replace("\"w\"", "\"x\""),
            "application/json");

        assertThat(waited.statusCode()).as(waited.body()).isEqualTo(202);
        assertThat(waited.headers().firstValue("X-Statesync-Wait")).hasValue("Timeout");
        assertThat(waited.headers().firstValue("Warning").orElse("")).contains("not Synced after 1s");
        assertThat(json(waited).path("kind").asText()).isEqualTo(kind);
        assertThat(json(waited).path("metadata").path("name").asText()).isEqualTo("w");
        assertStatus(unknown, 400, "BadRequest");
        assertThat(of(kind).withName("x").get()).as("nothing written").isNull();
    }
}
