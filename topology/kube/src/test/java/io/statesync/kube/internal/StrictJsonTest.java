package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

/** The Kubernetes API reads JSON bodies as strictly as /api/v1 does. */
class StrictJsonTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldRefuseADuplicateKeyWith400NamingTheKey() {
        assertThatThrownBy(() -> ResourceHandlers.parse(utf8("{\"spec\": {\"replicas\": 1, \"replicas\": 99}}")))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(400);
                assertThat(e.getMessage()).contains("Duplicate field 'replicas'");
            });
    }

    @Test
    void shouldRefuseTokensAfterTheDocumentWith400() {
        assertThatThrownBy(() -> ResourceHandlers.parse(utf8("{\"spec\": {}} {\"spec\": {\"evil\": true}}")))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(400);
                assertThat(e.getMessage()).contains("Trailing token");
            });
    }

    @Test
    void shouldStillReadAWellFormedBody() {
        assertThat(ResourceHandlers.parse(utf8("{\"spec\": {\"replicas\": 1}}\n")).path("spec").path("replicas").asInt())
            .isEqualTo(1);
    }
}
