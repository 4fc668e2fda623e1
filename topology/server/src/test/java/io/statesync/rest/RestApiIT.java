package io.statesync.rest;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

/** The REST API of docs/contract.md, section 7, over real HTTP, against a running topology on the embedded broker. */
@ExtendWith(EmbeddedClusterExtension.class)
class RestApiIT {

    private static RestTestApp app;

    @BeforeAll
    static void start() throws Exception {
        String prefix = RestTestApp.prefix("rest-api");
        app = RestTestApp.start(RestTestApp.config("rest-api", prefix));
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
        return "app-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void shouldCreateThenReadTheResourceWithItsVersionAsETag() {
        String name = unique();
        HttpResponse<String> created = app.as(RestTestApp.WRITER).put(path(name),
            body(Map.of("image", "nginx:1.20", "replicas", 2), Map.of("tier", "web")));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String version = json(created).path("metadata").path("resourceVersion").asText();
        assertThat(version).isNotEmpty();

        HttpResponse<String> read = app.get(path(name));
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.headers().firstValue("ETag")).hasValue("\"" + version + "\"");
        JsonNode r = json(read);
        assertThat(r.path("apiVersion").asText()).isEqualTo("statesync.io/v1");
        assertThat(r.path("kind").asText()).isEqualTo("WebApp");
        assertThat(r.path("metadata").path("name").asText()).isEqualTo(name);
        assertThat(r.path("metadata").path("generation").asLong()).isEqualTo(1);
        assertThat(r.path("metadata").path("uid").asText()).isNotEmpty();
        assertThat(r.path("metadata").path("creationTimestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(r.path("metadata").path("labels").path("tier").asText()).isEqualTo("web");
        assertThat(r.path("spec").path("replicas").asLong()).isEqualTo(2);
        assertThat(r.path("status").path("syncStatus").asText()).isNotEmpty();
    }

    @Test
    void shouldAnswerAnIdenticalResendWithTheSameVersion() {
        String name = unique();
        Map<String, Object> b = body(Map.of("image", "nginx"), Map.of());
        String v1 = json(app.put(path(name), b)).path("metadata").path("resourceVersion").asText();
        HttpResponse<String> again = app.put(path(name), b);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.headers().firstValue("X-Statesync-Admission")).hasValue("NoOp");
        assertThat(again.headers().firstValue("ETag")).hasValue("\"" + v1 + "\"");
    }

    @Test
    void shouldAnswer409WithTheCurrentVersionWhenTheResourceVersionIsStale() {
        String name = unique();
        String v1 = json(app.put(path(name), body(Map.of("replicas", 1), Map.of()))).path("metadata").path("resourceVersion").asText();
        app.put(path(name), body(Map.of("replicas", 2), Map.of()));
        String current = json(app.get(path(name))).path("metadata").path("resourceVersion").asText();

        HttpResponse<String> stale = app.send("PUT", path(name), body(Map.of("replicas", 3), Map.of()), "application/json",
            "If-Match", "\"" + v1 + "\"");
        assertThat(stale.statusCode()).isEqualTo(409);
        JsonNode err = json(stale);
        assertThat(err.path("code").asInt()).isEqualTo(409);
        assertThat(err.path("reason").asText()).isEqualTo("Conflict");
        assertThat(err.path("message").asText()).contains(current);
        assertThat(err.path("resourceVersion").asText()).isEqualTo(current);

        Map<String, Object> withVersion = Map.of("metadata", Map.of("resourceVersion", current), "spec", Map.of("replicas", 3));
        assertThat(app.put(path(name), withVersion).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAnswer400ForBadJsonBadFieldsAndBadKeys() {
        assertError(app.put(path(unique()), "{not json"), 400);
        assertError(app.put(path(unique()), Map.of("metadata", Map.of("labels", Map.of("a", 1)), "spec", Map.of())), 400);
        assertError(app.put(path(unique()), Map.of("kind", "Other", "spec", Map.of())), 400);
        assertError(app.put("/api/v1/resources/webapp/default/x", Map.of("spec", Map.of())), 400);
        assertError(app.put("/api/v1/resources/WebApp/Default/x", Map.of("spec", Map.of())), 400);
        assertError(app.get("/api/v1/resources?labelSelector=a%20in%20(x"), 400);
        assertError(app.get("/api/v1/resources?syncStatus=Sleeping"), 400);
        assertError(app.get("/api/v1/resources?limit=0"), 400);
    }

    @Test
    void shouldStoreAYamlPutAsTheSameObjectAsTheJsonPut() {
        String viaJson = unique();
        String viaYaml = unique();
        Map<String, Object> spec = Map.of("image", "nginx:1.21", "replicas", 2, "ports", List.of(80, 443),
            "env", Map.of("MODE", "prod", "DEBUG", false), "note", "a: b");
        app.put(path(viaJson), body(spec, Map.of("tier", "web")));
        String yaml = """
            # the same object as the JSON above
            metadata:
              labels: {tier: web}
            spec:
              image: nginx:1.21
              replicas: 2
              ports:
                - 80
                - 443
              env:
                MODE: prod
                DEBUG: false
              note: "a: b"
            """;
        HttpResponse<String> created = app.send("PUT", path(viaYaml), yaml, "application/yaml");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode fromJson = json(app.get(path(viaJson)));
        JsonNode fromYaml = json(app.get(path(viaYaml)));
        assertThat(fromYaml.path("spec")).isEqualTo(fromJson.path("spec"));
        assertThat(fromYaml.path("metadata").path("labels")).isEqualTo(fromJson.path("metadata").path("labels"));

        String version = fromYaml.path("metadata").path("resourceVersion").asText();
        HttpResponse<String> replaced = app.send("PUT", path(viaYaml), "spec:\n  replicas: 3\n", "application/x-yaml; charset=utf-8",
            "If-Match", "\"" + version + "\"");
        assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(200);
        assertThat(json(replaced).path("metadata").path("generation").asLong()).isEqualTo(2);
        HttpResponse<String> stale = app.send("PUT", path(viaYaml), "spec:\n  replicas: 4\n", "application/yaml",
            "If-Match", "\"" + version + "\"");
        assertError(stale, 409);
        HttpResponse<String> posted = app.send("POST", "/api/v1/resources/WebApp/default",
            "metadata:\n  name: " + unique() + "\nspec:\n  replicas: 1\n", "application/yaml");
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(201);
    }

    @Test
    void shouldAnswerBadYamlWith400NamingTheLineInAJsonError() {
        String name = unique();
        HttpResponse<String> bad = app.send("PUT", path(name), "spec:\n  ports: [80\n  image: x\n", "application/yaml");
        assertError(bad, 400);
        assertThat(json(bad).path("message").asText()).startsWith("malformed YAML at line 3");
        assertError(app.send("PUT", path(name), "spec:\n  a: &x 1\n  b: *x\n", "application/yaml"), 400);
        assertError(app.send("PUT", path(name), "spec: {}\n---\nspec: {}\n", "application/yaml"), 400);
        assertError(app.send("PUT", path(name), "spec:\n  blob: " + "x".repeat(70_000) + "\n", "application/yaml"), 413);
        HttpResponse<String> policy = app.send("PUT", "/api/v1/kinds/YamlKind", "maxAttempts: many\n", "application/yaml");
        assertError(policy, 400);
        assertThat(json(policy).path("message").asText()).contains("maxAttempts");
        assertError(app.get(path(name)), 404);
    }

    @Test
    void shouldAnswer404ForMissingResourcesAndUnknownRoutes() {
        assertError(app.get(path(unique())), 404);
        assertError(app.send("DELETE", path(unique()), null, null), 404);
        assertError(app.get(path(unique()) + "/diff"), 404);
        assertError(app.get("/api/v1/nothing-here"), 404);
    }

    @Test
    void shouldAnswer413ForAnOversizedBody() {
        String big = "{\"spec\":{\"blob\":\"" + "x".repeat(70_000) + "\"}}";
        assertError(app.put(path(unique()), big), 413);
    }

    @Test
    void shouldAnswer415ForTheWrongContentType() {
        assertError(app.send("PUT", path(unique()), "{\"spec\":{}}", "text/plain"), 415);
        assertError(app.send("PATCH", path(unique()), "{\"spec\":{}}", "application/json"), 415);
    }

    @Test
    void shouldRequireATokenAndTheWriterRoleForWrites() {
        String name = unique();
        try {
            assertError(app.as(null).get(path(name)), 401);
            assertError(app.as("wrong").get(path(name)), 401);
            assertError(app.as(RestTestApp.READER).put(path(name), body(Map.of(), Map.of())), 403);
            assertError(app.as(RestTestApp.READER).get(path(name)), 404);
            assertThat(app.as(null).get("/healthz").statusCode()).isEqualTo(200);
            assertThat(app.as(null).get("/readyz").statusCode()).isIn(200, 503);
            assertThat(app.as(null).get("/metrics").statusCode()).isEqualTo(200);
            assertError(app.as(null).get("/api/v1/nothing-here"), 401);
            assertError(app.as(RestTestApp.READER).get("/api/v1/nothing-here"), 404);
        } finally {
            app.as(RestTestApp.WRITER);
        }
    }

    @Test
    void shouldApplyAMergePatchAndBumpTheGeneration() {
        String name = unique();
        app.put(path(name), body(Map.of("image", "nginx:1.20", "replicas", 2, "env", Map.of("A", "1")), Map.of("x", "y")));
        HttpResponse<String> patched = app.send("PATCH", path(name),
            "{\"spec\":{\"replicas\":5,\"env\":{\"A\":null}},\"metadata\":{\"labels\":{\"z\":\"w\"}}}", "application/merge-patch+json");
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        JsonNode r = json(app.get(path(name)));
        assertThat(r.path("metadata").path("generation").asLong()).isEqualTo(2);
        assertThat(r.path("spec").path("replicas").asLong()).isEqualTo(5);
        assertThat(r.path("spec").path("image").asText()).isEqualTo("nginx:1.20");
        assertThat(r.path("spec").path("env").has("A")).isFalse();
        assertThat(r.path("metadata").path("labels").path("x").asText()).isEqualTo("y");
        assertThat(r.path("metadata").path("labels").path("z").asText()).isEqualTo("w");
    }

    @Test
    void shouldHonourTheDeletePreconditionThenMarkTheResourceDeleting() {
        String name = unique();
        String v = json(app.put(path(name), body(Map.of("a", 1), Map.of()))).path("metadata").path("resourceVersion").asText();
        assertError(app.send("DELETE", path(name), null, null, "If-Match", "\"999999\""), 409);
        HttpResponse<String> deleted = app.send("DELETE", path(name), null, null, "If-Match", "\"" + v + "\"");
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        HttpResponse<String> after = app.get(path(name));
        if (after.statusCode() == 200) {
            assertThat(json(after).path("metadata").path("deletionTimestamp").isNull()).isFalse();
        } else {
            assertThat(after.statusCode()).isEqualTo(404);
        }
    }

    @Test
    void shouldListWithFiltersLabelSelectorsAndPagination() {
        String ns = "ns-" + UUID.randomUUID().toString().substring(0, 6);
        for (int i = 0; i < 5; i++) {
            String p = "/api/v1/resources/WebApp/" + ns + "/app-" + i;
            assertThat(app.put(p, body(Map.of("i", i), Map.of("tier", i < 3 ? "web" : "db", "n" + i, "x"))).statusCode()).isEqualTo(201);
        }
        assertThat(names("?namespace=" + ns)).containsExactly("app-0", "app-1", "app-2", "app-3", "app-4");
        assertThat(names("?namespace=" + ns + "&labelSelector=tier%3Dweb")).containsExactly("app-0", "app-1", "app-2");
        assertThat(names("?namespace=" + ns + "&labelSelector=tier!%3Dweb")).containsExactly("app-3", "app-4");
        assertThat(names("?namespace=" + ns + "&labelSelector=tier%20in%20(db),n4")).containsExactly("app-4");
        assertThat(names("?namespace=" + ns + "&labelSelector=tier%20notin%20(web),!n4")).containsExactly("app-3");
        assertThat(names("?namespace=" + ns + "&kind=Other")).isEmpty();
        assertThat(names("?namespace=" + ns + "&syncStatus=OutOfSync").size() + names("?namespace=" + ns + "&syncStatus=Progressing").size())
            .isEqualTo(5);

        JsonNode page1 = json(app.get("/api/v1/resources?namespace=" + ns + "&limit=2"));
        String cont = page1.path("metadata").path("continue").asText();
        assertThat(page1.path("items")).hasSize(2);
        assertThat(page1.path("metadata").path("resourceVersion").asText()).isNotEmpty();
        JsonNode page2 = json(app.get("/api/v1/resources?namespace=" + ns + "&limit=2&continue=" + cont));
        assertThat(page2.path("items").get(0).path("metadata").path("name").asText()).isEqualTo("app-2");
        JsonNode page3 = json(app.get("/api/v1/resources?namespace=" + ns + "&limit=2&continue="
            + page2.path("metadata").path("continue").asText()));
        assertThat(page3.path("items")).hasSize(1);
        assertThat(page3.path("metadata").path("continue").isNull()).isTrue();
        assertError(app.get("/api/v1/resources?continue=garbage"), 400);
    }

    private static List<String> names(String query) {
        HttpResponse<String> r = app.get("/api/v1/resources" + query);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<String> out = new java.util.ArrayList<>();
        json(r).path("items").forEach(i -> out.add(i.path("metadata").path("name").asText()));
        return out;
    }

    @Test
    void shouldServeDiffAndDiagnosis() {
        String name = unique();
        app.put(path(name), body(Map.of("replicas", 2), Map.of()));
        HttpResponse<String> diff = app.get(path(name) + "/diff");
        assertThat(diff.statusCode()).as(diff.body()).isEqualTo(200);
        assertThat(json(diff).path("items").isArray()).isTrue();
        HttpResponse<String> diag = app.get(path(name) + "/diagnosis");
        assertThat(diag.statusCode()).as(diag.body()).isEqualTo(200);
        assertThat(json(diag).has("generationLag")).isTrue();
        assertThat(json(diag).path("hints").isArray()).isTrue();
    }

    @Test
    void shouldWriteAndReadKindPolicies() {
        String kind = "Kind" + UUID.randomUUID().toString().substring(0, 6).replace("-", "");
        HttpResponse<String> put = app.put("/api/v1/kinds/" + kind, Map.of("ignoredFields", List.of("status"), "maxAttempts", 7));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        JsonNode got = json(app.get("/api/v1/kinds/" + kind));
        assertThat(got.path("maxAttempts").asInt()).isEqualTo(7);
        Set<String> kinds = new HashSet<>();
        json(app.get("/api/v1/kinds")).path("items").forEach(k -> kinds.add(k.path("kind").asText()));
        assertThat(kinds).contains(kind);
        assertError(app.put("/api/v1/kinds/" + kind, Map.of("maxAttempts", "many", "orphanPolicy", "NOPE")), 400);
        assertError(app.put("/api/v1/kinds/" + kind, Map.of("maxAttempts", "7")), 400);
        assertError(app.put("/api/v1/kinds/" + kind, Map.of("maxAttempt", 7)), 400);
        assertError(app.put("/api/v1/kinds/" + kind, Map.of("ignoredFields", "spec")), 400);
        assertThat(json(app.get("/api/v1/kinds/" + kind)).path("maxAttempts").asInt()).as("refused writes change nothing").isEqualTo(7);
        HttpResponse<String> yaml = app.send("PUT", "/api/v1/kinds/" + kind, "ignoredFields: [status]\nmaxAttempts: 8\n", "application/yaml");
        assertThat(yaml.statusCode()).as(yaml.body()).isEqualTo(200);
        assertThat(json(app.get("/api/v1/kinds/" + kind)).path("maxAttempts").asInt()).as("a YAML policy").isEqualTo(8);
        assertError(app.get("/api/v1/kinds/NoSuchKind"), 404);
    }

    @Test
    void shouldBeReadyAndHealthy() {
        assertThat(app.get("/healthz").statusCode()).isEqualTo(200);
        HttpResponse<String> ready = app.get("/readyz");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(json(ready).path("ready").asBoolean()).isTrue();
    }

    @Test
    void shouldTimeRequestsByRouteTemplateNeverByRawPath() {
        String name = unique();
        app.get(path(name));
        String metrics = app.get("/metrics").body();
        assertThat(metrics).contains("statesync_http_server_requests_seconds_count{");
        assertThat(metrics).contains("route=\"/api/v1/resources/{kind}/{namespace}/{name}\"");
        assertThat(metrics).doesNotContain(name);
    }

    @Test
    void shouldDescribeExactlyTheRegisteredRoutesInOpenApi() {
        JsonNode doc = json(app.get("/openapi.json"));
        Set<String> documented = new HashSet<>();
        doc.path("paths").properties().forEach(p ->
            p.getValue().properties().forEach(m -> documented.add(m.getKey().toUpperCase() + " " + p.getKey())));
        Set<String> registered = new HashSet<>(app.app.restServer().registeredRoutes());
        assertThat(registered).isNotEmpty();
        assertThat(documented).isEqualTo(registered);
    }

    @Test
    void shouldRefuseAChunkedBodyBeyondTheLimitBeforeItIsAllSent() throws Exception {
        // A chunked body declares no length; a server that read it whole before checking would answer only at its end.
        long total = 256L * 1_048_576;
        RawHttp.Answer a = RawHttp.putChunked(app.base, path(unique()), RestTestApp.WRITER, total);
        assertRawError(a, 413);
        assertThat(a.sentWhenAnswered()).as("body bytes sent when the answer came").isLessThan(total / 4);
    }

    @Test
    void shouldAnswerMalformedPercentEscapesAndUnparsableRequestsWithJsonErrors() throws Exception {
        assertRawError(RawHttp.send(app.base, "GET", "/api/v1/resources?continue=%", RestTestApp.READER), 400);
        assertRawError(RawHttp.send(app.base, "GET", "/api/v1/watch?resourceVersion=%zz", RestTestApp.READER), 400);
        assertRawError(RawHttp.send(app.base, "DELETE", "/api/v1/resources/WebApp/%u002e/x", RestTestApp.WRITER), 400);
        assertRawError(RawHttp.send(app.base, "GET", "/api/v1/resources/WebApp/default/a%2Fb", RestTestApp.READER), 400);
        assertRawError(RawHttp.send(app.base, "GET", "/api/v1/resources", RestTestApp.READER, "X-Big: " + "x".repeat(20_000)), 431);
    }

    private static void assertRawError(RawHttp.Answer a, int code) throws IOException {
        assertThat(a.status()).as(a.body()).isEqualTo(code);
        JsonNode e = RestTestApp.JSON.readTree(a.body());
        assertThat(e.path("code").asInt()).as(a.body()).isEqualTo(code);
        assertThat(e.path("reason").asText()).isNotEmpty();
        assertThat(e.has("message")).isTrue();
    }

    static void assertError(HttpResponse<String> r, int code) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(code);
        JsonNode e = json(r);
        assertThat(e.path("code").asInt()).isEqualTo(code);
        assertThat(e.path("reason").asText()).isNotEmpty();
        assertThat(e.has("message")).isTrue();
    }

    @Test
    void shouldMarkAListServedBeforeTheViewCaughtUpAsStaleAndStopOnceItHas() throws Exception {
        // A view whose reader is held (its change listener blocks the reader's thread after the next applied poll)
        // cannot reach the committed end a list waits for.
        var viewField = RestServer.class.getDeclaredField("view");
        viewField.setAccessible(true);
        io.statesync.view.ResourceView view = (io.statesync.view.ResourceView) viewField.get(app.app.restServer());
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean held = new java.util.concurrent.atomic.AtomicBoolean();
        view.onChange(() -> {
            try {
                held.set(true);
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        String kind = "Stale" + UUID.randomUUID().toString().substring(0, 6);
        try {
            RestTestApp writer = app.as(RestTestApp.WRITER);
            java.util.concurrent.CompletableFuture.runAsync(() -> writer.put("/api/v1/resources/" + kind + "/default/a",
                Map.of("spec", Map.of("n", 1))));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).untilTrue(held);
            java.util.concurrent.CompletableFuture.runAsync(() -> writer.put("/api/v1/resources/" + kind + "/default/b",
                Map.of("spec", Map.of("n", 2))));
            Thread.sleep(1_000);
            HttpResponse<String> stale = app.get("/api/v1/resources?kind=" + kind);
            assertThat(stale.statusCode()).as(stale.body()).isEqualTo(200);
            assertThat(stale.headers().firstValue(io.statesync.rest.internal.StaleAnswers.HEADER)).hasValue("true");
            assertThat(stale.headers().firstValue("Warning")).hasValueSatisfying(w -> assertThat(w).startsWith("299 - "));
        } finally {
            release.countDown();
        }
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() -> {
            HttpResponse<String> fresh = app.get("/api/v1/resources?kind=" + kind);
            assertThat(fresh.headers().firstValue(io.statesync.rest.internal.StaleAnswers.HEADER)).isEmpty();
            assertThat(json(fresh).path("items").size()).isEqualTo(2);
        });
    }
}
