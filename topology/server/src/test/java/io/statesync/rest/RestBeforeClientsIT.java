package io.statesync.rest;

import java.net.http.HttpResponse;
import java.util.Map;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A REST server that has bound its port while the topics are still being verified (the start of an instance binds
 * first, and starts its admission client and resource view only once the topics are known): every route that needs
 * them answers 503 with a JSON body, and readiness says which part is missing. Its topics do not even exist.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestBeforeClientsIT {

    private static RestServer server;
    private static RestTestApp client;

    @BeforeAll
    static void bind() throws Exception {
        AppConfig cfg = new AppConfig(RestTestApp.config("rest-before-clients", RestTestApp.prefix("rest-before-clients")));
        server = new RestServer(cfg, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        server.bind();
        client = RestTestApp.client("http://127.0.0.1:" + server.port());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void shouldAnswer503ToAWriteBeforeTheAdmissionClientStarts() {
        HttpResponse<String> r = client.put("/api/v1/resources/WebApp/default/shop", Map.of("spec", Map.of("a", 1)));
        RestApiIT.assertError(r, 503);
        assertThat(json(r).path("message").asText()).contains("admission");
    }

    @Test
    void shouldAnswer503ToAKindPolicyWriteBeforeTheAdmissionClientStarts() {
        HttpResponse<String> r = client.put("/api/v1/kinds/WebApp", Map.of("resyncPeriodMs", 60_000));
        RestApiIT.assertError(r, 503);
        assertThat(json(r).path("message").asText()).contains("admission");
    }

    @Test
    void shouldAnswer503ToAListBeforeTheViewStarts() {
        RestApiIT.assertError(client.get("/api/v1/resources"), 503);
    }

    @Test
    void shouldNameTheMissingClientsWhenAskedIfReady() {
        HttpResponse<String> r = client.get("/readyz");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(json(r).path("reason").asText()).contains("admission reply consumer not assigned").contains("streams not started");
    }

    @Test
    void shouldAnswerLivenessAtOnce() {
        assertThat(client.get("/healthz").statusCode()).isEqualTo(200);
    }
}
