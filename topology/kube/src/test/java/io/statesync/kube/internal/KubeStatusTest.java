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

    @Test
    void shouldWordACreateInATerminatingNamespaceAsKubernetesNamespaceLifecycleDoes() {
        ApiError refused = ApiError.forbidden("unable to create new content in namespace team-a because it is being terminated",
            java.util.List.of(new ApiError.Cause("NamespaceTerminating", "namespace team-a is being terminated", "metadata.namespace")));

        ObjectNode s = KubeStatus.of(ResourceHandlers.kubeMessage(refused, KindCatalog.of("WebApp", null), "late"),
            "statesync.io", "webapps", null);

        assertThat(s.path("code").asInt()).isEqualTo(403);
        assertThat(s.path("reason").asText()).isEqualTo("Forbidden");
        assertThat(s.path("message").asText()).isEqualTo("webapps.statesync.io \"late\" is forbidden: unable to create new"
            + " content in namespace team-a because it is being terminated");
        assertThat(s.path("details").path("name").asText()).isEqualTo("late");
        assertThat(s.path("details").path("group").asText()).isEqualTo("statesync.io");
        assertThat(s.path("details").path("kind").asText()).isEqualTo("webapps");
        assertThat(s.path("details").path("causes").get(0).path("reason").asText()).isEqualTo("NamespaceTerminating");
        assertThat(s.path("details").path("causes").get(0).path("field").asText()).isEqualTo("metadata.namespace");
    }

    @Test
    void shouldKeepANamespaceNotFoundAboutTheNamespaceNotTheObject() {
        ApiError missing = ApiError.notFound("namespaces \"nowhere\" not found")
            .about(new ApiError.Subject("", "namespaces", "nowhere"));

        ObjectNode s = KubeStatus.of(ResourceHandlers.kubeMessage(missing, KindCatalog.of("WebApp", null), "a"),
            "statesync.io", "webapps", null);

        assertThat(s.path("message").asText()).isEqualTo("namespaces \"nowhere\" not found");
        assertThat(s.path("details").path("kind").asText()).isEqualTo("namespaces");
        assertThat(s.path("details").path("name").asText()).isEqualTo("nowhere");
    }
}
