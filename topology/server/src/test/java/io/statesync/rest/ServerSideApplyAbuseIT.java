package io.statesync.rest;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.WriteAdmission;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What one hostile writer can do with server-side apply: each manager name leaves an entry in the object's managed
 * fields, so a thousand applies under a thousand names would grow one object without end; a managedFields list sent
 * with a PUT can be nested as deep as the body allows; a manager name can be any string. Each is bounded: managed
 * fields count toward spec.max.bytes (422 PatchTooLarge), hostile managed fields are ignored as Kubernetes ignores
 * malformed ones, and a bad name is 422; every partition keeps admitting.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class ServerSideApplyAbuseIT {

    private static final String PATH = "/api/v1/resources/WebApp/default/applied";
    private static final String APPLY = "application/apply-patch+yaml";
    private static final int SPEC_MAX_BYTES = 8_192;
    private static RestTestApp app;

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> config = RestTestApp.config("ssa-abuse", RestTestApp.prefix("ssa-abuse"));
        config.put(AppConfig.SPEC_MAX_BYTES, SPEC_MAX_BYTES);
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
    }

    @AfterAll
    static void stop() {
        RestTestApp.closeAll(app);
    }

    private static HttpResponse<String> apply(String path, String manager, String config) {
        return app.send("PATCH", path + "?fieldManager=" + manager, config, APPLY);
    }

    @Test
    void shouldRefuseTheApplyWhoseManagedFieldsWouldPassSpecMaxBytes() {
        String path = PATH + "-many";
        assertThat(apply(path, "owner", "{\"spec\":{\"image\":\"nginx:1\"}}").statusCode()).isEqualTo(201);
        int admitted = 0;
        HttpResponse<String> refused = null;
        for (int i = 0; i < 1_000 && refused == null; i++) {
            HttpResponse<String> r = apply(path, "manager-" + i, "{\"metadata\":{\"labels\":{\"l" + i + "\":\"v\"}}}");
            if (r.statusCode() == 200) {
                admitted++;
            } else {
                refused = r;
            }
        }

        assertThat(refused).as("no apply was refused after %d managers", admitted).isNotNull();
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(json(refused).path("reason").asText()).isEqualTo(WriteAdmission.PATCH_TOO_LARGE);
        JsonNode stored = json(app.get(path));
        assertThat(stored.path("metadata").path("managedFields").size()).isEqualTo(admitted + 1);
        assertThat(stored.toString().length()).isLessThan(4 * SPEC_MAX_BYTES);
        assertThat(apply(path, "manager-0", "{}").statusCode()).as("a manager may still give its fields up").isEqualTo(200);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    @Test
    void shouldIgnoreDeeplyNestedManagedFieldsSentWithAPut() {
        String path = PATH + "-deep";
        assertThat(apply(path, "owner", "{\"spec\":{\"image\":\"nginx:1\"}}").statusCode()).isEqualTo(201);
        String fields = "{\"f:a\":".repeat(500) + "{}" + "}".repeat(500);
        String body = "{\"metadata\":{\"managedFields\":[{\"manager\":\"evil\",\"operation\":\"Update\",\"apiVersion\":"
            + "\"statesync.io/v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":" + fields + "}]},\"spec\":{\"image\":\"nginx:2\"}}";

        HttpResponse<String> put = app.send("PUT", path + "?fieldManager=editor", body, "application/json");
        JsonNode stored = json(app.get(path));

        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        assertThat(stored.path("spec").path("image").asText()).isEqualTo("nginx:2");
        assertThat(stored.path("metadata").path("managedFields").toString()).doesNotContain("evil").contains("editor");
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    @Test
    void shouldRefuseBadManagerNamesAndForceOutsideAnApply() {
        String path = PATH + "-names";
        HttpResponse<String> missing = app.send("PATCH", path, "{\"spec\":{}}", APPLY);
        HttpResponse<String> tooLong = apply(path, "m".repeat(129), "{\"spec\":{}}");
        HttpResponse<String> unprintable = apply(path, "bad%07name", "{\"spec\":{}}");
        HttpResponse<String> forcedMerge = app.send("PATCH", path + "?force=true", "{\"spec\":{}}", "application/merge-patch+json");
        HttpResponse<String> withManagedFields = apply(path, "owner", "{\"metadata\":{\"managedFields\":[{}]}}");

        assertThat(missing.statusCode()).as(missing.body()).isEqualTo(422);
        assertThat(json(missing).path("message").asText()).contains("fieldManager: Required value");
        assertThat(tooLong.statusCode()).as(tooLong.body()).isEqualTo(422);
        assertThat(unprintable.statusCode()).as(unprintable.body()).isEqualTo(422);
        assertThat(forcedMerge.statusCode()).as(forcedMerge.body()).isEqualTo(422);
        assertThat(withManagedFields.statusCode()).as(withManagedFields.body()).isEqualTo(400);
        assertThat(app.get(path).statusCode()).isEqualTo(404);
    }
}
