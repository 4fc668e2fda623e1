package io.statesync.rest.internal;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.internal.Refusals;
import io.statesync.topology.ResourceKey;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ErrorMappingTest {

    private static ReconcileEvent event(EventType type, String message, String version) {
        return event(type, "r", message, version);
    }

    private static ReconcileEvent event(EventType type, String reason, String message, String version) {
        return ReconcileEvent.newBuilder().setEventId("e").setType(type).setReason(reason).setMessage(message)
            .setResourceVersion(version).setTimestamp(Instant.EPOCH).build();
    }

    @Test
    void shouldMapAConflictTo409WithTheCurrentVersion() {
        assertThatThrownBy(() -> Refusals.throwIfRefused(event(EventType.Conflict, "expected 1 but the current one is 7", "7")))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(409);
                assertThat(e.body()).containsEntry("resourceVersion", "7").containsEntry("reason", "Conflict");
            });
    }

    @Test
    void shouldMapANotFoundDeleteTo404AndOtherInvalidWritesTo400() {
        assertThatThrownBy(() -> Refusals.throwIfRefused(event(EventType.Invalid, "NotFound", "WebApp/a/b does not exist", null)))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(404));
        assertThatThrownBy(() -> Refusals.throwIfRefused(event(EventType.Invalid, "TooDeep: nesting", null)))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(400));
    }

    @Test
    void shouldMapAnExistingNameTo409AlreadyExistsAndAPatchThatDoesNotApplyTo422() {
        assertThatThrownBy(() -> Refusals.throwIfRefused(event(EventType.Conflict, "AlreadyExists", "WebApp/a/b already exists", "4")))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(409);
                assertThat(e.reason()).isEqualTo("AlreadyExists");
            });
        assertThatThrownBy(() -> Refusals.throwIfRefused(event(EventType.Invalid, "PatchNotApplicable", "test failed", null)))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(422));
    }

    @Test
    void shouldMapAPatchTooLargeTo422AndOutputsTooLargeTo413WithTheirReasons() {
        assertThatThrownBy(() -> Refusals.throwIfRefused(event(EventType.Invalid, "PatchTooLarge", "too many", null)))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(422);
                assertThat(e.reason()).isEqualTo("PatchTooLarge");
            });
        assertThatThrownBy(() -> Refusals.throwIfRefused(event(EventType.Invalid, "OutputTooLarge", "paths", null)))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(413);
                assertThat(e.reason()).isEqualTo("OutputTooLarge");
            });
    }

    @Test
    void shouldLetAcceptedAnswersThrough() {
        assertThatCode(() -> Refusals.throwIfRefused(event(EventType.Accepted, "NoOp", "3"))).doesNotThrowAnyException();
    }

    @Test
    void shouldRenderErrorsAsCodeReasonMessage() {
        assertThat(ApiError.unavailable("migrating", 2).body()).containsOnlyKeys("code", "reason", "message");
        assertThat(ApiError.unavailable("migrating", 2).retryAfterSeconds()).isEqualTo(2);
        assertThat(ApiError.timeout("slow").code()).isEqualTo(504);
        assertThat(ApiError.tooLarge("big").code()).isEqualTo(413);
        assertThat(ApiError.unsupportedMediaType("xml").code()).isEqualTo(415);
        assertThat(ApiError.gone("old").code()).isEqualTo(410);
    }

    @Test
    void shouldRejectBodyFieldsThatContradictThePath() throws Exception {
        ResourceKey key = ResourceKey.of("WebApp", "default", "shop");
        JsonNode body = new ObjectMapper().readTree("{\"metadata\":{\"name\":\"other\"},\"spec\":{}}");
        assertThatThrownBy(() -> ResourceJson.desired(key, body, null))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.getMessage()).contains("metadata.name"));
    }

    @Test
    void shouldCarryAnExpectedVersionIntoTheDesiredState() throws Exception {
        JsonNode body = new ObjectMapper().readTree("{\"metadata\":{\"labels\":{\"a\":\"b\"},\"finalizers\":[\"f\"]},\"spec\":{\"n\":5}}");
        var d = ResourceJson.desired(ResourceKey.of("WebApp", "default", "shop"), body, "12");
        assertThat(d.getExpectedResourceVersion()).isEqualTo("12");
        assertThat(d.getLabels()).containsEntry("a", "b");
        assertThat(d.getFinalizers()).containsExactly("f");
    }
}
