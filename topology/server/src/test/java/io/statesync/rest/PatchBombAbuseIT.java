package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.WriteAdmission;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JSON patch of a kilobyte whose copy operations double the spec each time: once it built a Resource of megabytes
 * that no topic would take (a wedged partition), and its dry run an OutOfMemoryError. Now it is refused while it
 * applies, with 422 PatchTooLarge, as a write and as a dry run, and every partition keeps admitting.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class PatchBombAbuseIT {

    private static final String PATH = "/api/v1/resources/WebApp/default/bombed";
    private static final int MAX_OPERATIONS = 100;
    private static RestTestApp app;

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> config = RestTestApp.config("patch-bomb", RestTestApp.prefix("patch-bomb"));
        config.put(AppConfig.PATCH_MAX_OPERATIONS, MAX_OPERATIONS);
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
        assertThat(app.put(PATH, Map.of("spec", Map.of("image", "x".repeat(80)))).statusCode()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        RestTestApp.closeAll(app);
    }

    private static String copyBomb(int copies) {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i < copies; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"copy\",\"from\":\"/spec\",\"path\":\"/spec/a").append(i).append("\"}");
        }
        return ops.append("]").toString();
    }

    private static HttpResponse<String> jsonPatch(String query, String patch) {
        return app.send("PATCH", PATH + query, patch, "application/json-patch+json");
    }

    private static void assertRefusedAsTooLarge(HttpResponse<String> r, String what) {
        assertThat(r.statusCode()).as("%s: %s", what, r.body()).isEqualTo(422);
        assertThat(r.body().length()).as("%s answers with a short error, not the object", what).isLessThan(2_000);
        JsonNode error = json(r);
        assertThat(error.path("reason").asText()).isEqualTo(WriteAdmission.PATCH_TOO_LARGE);
        assertThat(error.path("message").asText()).contains("limit of");
    }

    @Test
    void shouldRefuseACopyBombAsAWriteAndAsADryRunAndKeepEveryPartitionAdmitting() {
        String before = json(app.get(PATH)).path("spec").toString();
        for (int copies : new int[] {14, 24}) {
            long start = System.nanoTime();
            assertRefusedAsTooLarge(jsonPatch("", copyBomb(copies)), copies + " copies");
            assertRefusedAsTooLarge(jsonPatch("?dryRun=All", copyBomb(copies)), copies + " copies, dry run");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
        JsonNode after = json(app.get(PATH));
        assertThat(after.path("spec").toString()).isEqualTo(before);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    @Test
    void shouldRefuseMoreOperationsThanPatchMaxOperations() {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i <= MAX_OPERATIONS; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/spec/image\",\"value\":\"" + "x".repeat(80) + "\"}");
        }
        String patch = ops.append("]").toString();
        HttpResponse<String> write = jsonPatch("", patch);
        HttpResponse<String> dryRun = jsonPatch("?dryRun=All", patch);
        for (HttpResponse<String> r : new HttpResponse[] {write, dryRun}) {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
            assertThat(Objects.requireNonNull(json(r)).path("message").asText())
                .contains((MAX_OPERATIONS + 1) + " operations, more than the limit of " + MAX_OPERATIONS);
        }
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }
}
