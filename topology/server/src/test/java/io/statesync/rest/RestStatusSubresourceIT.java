package io.statesync.rest;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.StatusSubresource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code PUT} and {@code PATCH /api/v1/resources/{kind}/{namespace}/{name}/status}: a controller's status write is an
 * observation, answered like a write, shown in {@code .status} beside statesync's fields, and never a change of spec.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestStatusSubresourceIT {

    private static final String BASE = "/api/v1/resources/WebApp/status-ns/";
    private static final int STATUS_MAX_BYTES = 4_096;
    private static RestTestApp app;

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> config = RestTestApp.config("rest-status", RestTestApp.prefix("rest-status"));
        config.put(AppConfig.SPEC_MAX_BYTES, STATUS_MAX_BYTES);
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
        assertThat(app.put("/api/v1/kinds/WebApp", Map.of("correctionDeadlineMs", 3_600_000L)).statusCode()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        RestTestApp.closeAll(app);
    }

    private static JsonNode create(String name) {
        HttpResponse<String> r = app.put(BASE + name, Map.of("spec", Map.of("image", "nginx:1", "replicas", 2)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return json(r);
    }

    private static HttpResponse<String> patchStatus(String name, String body, String contentType, String... headers) {
        return app.send("PATCH", BASE + name + "/status", body, contentType, headers);
    }

    @Test
    void shouldPutAStatusThatIsShownBesideStatesyncsOwnFieldsAndChangesNoSpec() {
        JsonNode created = create("put");

        HttpResponse<String> r = app.send("PUT", BASE + "put/status", Map.of("metadata", Map.of("resourceVersion",
            created.path("metadata").path("resourceVersion").asText()), "spec", Map.of("replicas", 9),
            "status", Map.of("readyReplicas", 2, "observedGeneration", 1, "conditions",
                List.of(Map.of("type", "Ready", "status", "True", "reason", "AllReady")))), "application/json");
        JsonNode read = json(app.get(BASE + "put"));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Statesync-Admission")).hasValue("StatusReported");
        assertThat(read.path("status").path("readyReplicas").asInt()).isEqualTo(2);
        assertThat(read.path("status").path("syncStatus").asText()).as("observedGeneration is the generation").isEqualTo("Synced");
        assertThat(read.path("status").path("conditions").findValuesAsText("type")).contains("Ready", "Synced");
        assertThat(read.path("spec").path("replicas").asInt()).isEqualTo(2);
        assertThat(read.path("metadata").path("generation").asInt()).isEqualTo(1);
        assertThat(read.path("metadata").path("resourceVersion").asText())
            .isNotEqualTo(created.path("metadata").path("resourceVersion").asText());
    }

    @Test
    void shouldRefuseAStaleResourceVersionWithConflict() {
        JsonNode created = create("stale");
        assertThat(patchStatus("stale", "{\"status\":{\"readyReplicas\":1}}", "application/merge-patch+json")
            .statusCode()).isEqualTo(200);

        HttpResponse<String> r = patchStatus("stale", "{\"status\":{\"readyReplicas\":2}}", "application/merge-patch+json",
            "If-Match", "\"" + created.path("metadata").path("resourceVersion").asText() + "\"");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
        assertThat(json(r).path("reason").asText()).isEqualTo("Conflict");
        assertThat(json(app.get(BASE + "stale")).path("status").path("readyReplicas").asInt()).isEqualTo(1);
    }

    @Test
    void shouldApplyJsonPatchesAndAppliedConfigurationsToTheStatusAsShown() {
        create("patched");

        HttpResponse<String> merged = patchStatus("patched", "{\"status\":{\"readyReplicas\":1,\"phase\":\"Starting\"}}",
            "application/merge-patch+json");
        HttpResponse<String> jsonPatched = patchStatus("patched",
            "[{\"op\":\"replace\",\"path\":\"/status/readyReplicas\",\"value\":2}]", "application/json-patch+json");
        HttpResponse<String> applied = app.send("PATCH", BASE + "patched/status?fieldManager=ctl",
            "{\"status\":{\"phase\":\"Running\"}}", "application/apply-patch+yaml");
        JsonNode status = json(applied).path("status");

        assertThat(merged.statusCode()).as(merged.body()).isEqualTo(200);
        assertThat(jsonPatched.statusCode()).as(jsonPatched.body()).isEqualTo(200);
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
        assertThat(status.path("readyReplicas").asInt()).isEqualTo(2);
        assertThat(status.path("phase").asText()).isEqualTo("Running");
        assertThat(status.path("syncStatus").asText()).as("statesync's own fields stay").isNotEmpty();
        assertThat(json(app.get(BASE + "patched/diff")).path("observed").toString()).contains("ctl");
    }

    @Test
    void shouldDropStatesyncsOwnConditionsAndFieldsWithAWarning() {
        create("owned");

        HttpResponse<String> r = patchStatus("owned", "{\"status\":{\"syncStatus\":\"Synced\",\"conditions\":["
            + "{\"type\":\"Synced\",\"status\":\"True\",\"reason\":\"Mine\"},{\"type\":\"Ready\",\"status\":\"False\"}]}}",
            "application/merge-patch+json");
        JsonNode status = json(r).path("status");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().allValues("Warning")).anySatisfy(w -> assertThat(w).contains("Synced"))
            .anySatisfy(w -> assertThat(w).contains("status.syncStatus"));
        assertThat(status.path("syncStatus").asText()).isNotEqualTo("Synced");
        assertThat(status.path("conditions").findValuesAsText("reason")).doesNotContain("Mine");
        assertThat(status.path("conditions").findValuesAsText("type")).contains("Ready");
    }

    @Test
    void shouldLeaveTheReportedStatusAsItWasOnASpecWrite() {
        create("spec");
        patchStatus("spec", "{\"status\":{\"readyReplicas\":2}}", "application/merge-patch+json");

        HttpResponse<String> r = app.send("PATCH", BASE + "spec", "{\"spec\":{\"replicas\":5},\"status\":{\"readyReplicas\":7}}",
            "application/merge-patch+json");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).path("metadata").path("generation").asInt()).isEqualTo(2);
        assertThat(json(app.get(BASE + "spec")).path("status").path("readyReplicas").asInt()).isEqualTo(2);
    }

    @Test
    void shouldRefuseHostileStatusWritesAndKeepEveryPartitionAdmitting() {
        create("hostile");
        String huge = "{\"status\":{\"blob\":\"" + "x".repeat(STATUS_MAX_BYTES * 2) + "\"}}";
        String deep = "{\"status\":" + "{\"a\":".repeat(200) + "1" + "}".repeat(200) + "}";

        HttpResponse<String> tooLarge = patchStatus("hostile", huge, "application/merge-patch+json");
        HttpResponse<String> tooDeep = patchStatus("hostile", deep, "application/merge-patch+json");
        HttpResponse<String> missing = patchStatus("nobody", "{\"status\":{\"readyReplicas\":1}}", "application/merge-patch+json");

        assertThat(tooLarge.statusCode()).as(tooLarge.body()).isEqualTo(413);
        assertThat(json(tooLarge).path("reason").asText()).isEqualTo(StatusSubresource.STATUS_TOO_LARGE);
        assertThat(tooDeep.statusCode()).as(tooDeep.body()).isBetween(400, 499);
        assertThat(json(tooDeep).path("message").asText()).isNotEmpty();
        assertThat(missing.statusCode()).as(missing.body()).isEqualTo(404);
        assertThat(json(app.get(BASE + "hostile")).path("status").has("blob")).isFalse();
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }
}
