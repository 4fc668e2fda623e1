package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

class KubeStatusTest {

    @Test
    void shouldNameAnExpiredPositionAsKubernetesClientsExpectIt() {
        ObjectNode s = KubeStatus.of(ApiError.gone("too old"), "statesync.io", "webapps", null);

        assertThat(s.path("kind").asText()).isEqualTo("Status");
        assertThat(s.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(s.path("status").asText()).isEqualTo("Failure");
        assertThat(s.path("reason").asText()).isEqualTo("Expired");
        assertThat(s.path("code").asInt()).isEqualTo(410);
        assertThat(s.path("details").path("group").asText()).isEqualTo("statesync.io");
    }

    @Test
    void shouldKeepTheReasonsKubernetesShares() {
        assertThat(KubeStatus.reason(ApiError.alreadyExists("x"))).isEqualTo("AlreadyExists");
        assertThat(KubeStatus.reason(ApiError.conflict("x", "1"))).isEqualTo("Conflict");
        assertThat(KubeStatus.reason(ApiError.validationFailed("x"))).isEqualTo("Invalid");
        assertThat(KubeStatus.reason(ApiError.unavailable("x", 1))).isEqualTo("ServiceUnavailable");
        assertThat(KubeStatus.reason(ApiError.timeout("x"))).isEqualTo("Timeout");
        assertThat(KubeStatus.reason(new ApiError(429, "TooSlow", "x"))).isEqualTo("TooManyRequests");
    }

    @Test
    void shouldAnswerAWatchPastItsCapAsTooManyRequestsWithRetryAfter() {
        ApiError capped = ApiError.tooManyRequests("this client has watch.max.open.per.token=500 watches open", 5);
        ObjectNode s = KubeStatus.of(capped, "statesync.io", "webapps", null);

        assertThat(s.path("reason").asText()).isEqualTo("TooManyRequests");
        assertThat(s.path("code").asInt()).isEqualTo(429);
        assertThat(s.path("message").asText()).contains("watch.max.open.per.token");
        assertThat(capped.retryAfterSeconds()).isEqualTo(5);
    }
}
