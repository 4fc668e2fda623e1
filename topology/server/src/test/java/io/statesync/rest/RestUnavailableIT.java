package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicManager;
import io.statesync.topology.TopicNames;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A REST server whose streams never start: reads get 503 with Retry-After, readiness says why, and writes time
 * out with 504 because no admission answer can come.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestUnavailableIT {

    private static RestServer server;
    private static RestTestApp client;

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> config = RestTestApp.config("rest-unavailable", RestTestApp.prefix("rest-unavailable"));
        config.put(ServerConfig.ADMISSION_TIMEOUT_MS, 500L);
        AppConfig cfg = new AppConfig(config);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers()))) {
            new TopicManager(admin, new TopicNames(cfg.topicPrefix()), 3, (short) -1).ensureTopics(true);
        }
        server = new RestServer(cfg, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        server.start();
        client = RestTestApp.client("http://127.0.0.1:" + server.port());
        await().atMost(Duration.ofSeconds(60)).until(() -> server.readinessProblems().stream()
            .noneMatch(p -> p.contains("admission")));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void shouldAnswer503WithRetryAfterWhileTheStoresAreNotQueryable() {
        HttpResponse<String> r = client.get("/api/v1/resources/WebApp/default/shop");
        RestApiIT.assertError(r, 503);
        assertThat(r.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void shouldReportWhyItIsNotReady() {
        HttpResponse<String> r = client.get("/readyz");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(json(r).path("reason").asText()).contains("streams not started");
    }

    @Test
    void shouldAnswer504WithAnUnknownOutcomeAndHowToFindOutWhenNoAdmissionAnswerArrivesInTime() {
        HttpResponse<String> r = client.send("PUT", "/api/v1/resources/WebApp/default/shop", Map.of("spec", Map.of("a", 1)),
            "application/json", "X-Request-Id", "late-1");
        RestApiIT.assertError(r, 504);
        String message = json(r).path("message").asText();
        assertThat(message).contains("outcome is UNKNOWN", "request id late-1", "Kafka acknowledged the write",
            "GET the resource", "metadata.resourceVersion");
        assertThat(message).doesNotContain("re-sending it is safe");
    }
}
