package io.statesync.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code /api/v1/resources} with kinds of other API groups and cluster-scoped keys, over real HTTP. */
@ExtendWith(EmbeddedClusterExtension.class)
class GroupQualifiedKeysIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static RestTestApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RestTestApp.start(RestTestApp.config("group-keys", RestTestApp.prefix("group-keys")));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    @Test
    void shouldWriteAndReadAKindOfAnotherGroupUnderItsQualifiedName() throws Exception {
        HttpResponse<String> put = app.put("/api/v1/resources/Widget.example.com/team-a/w1",
            Map.of("spec", Map.of("size", "small")));
        HttpResponse<String> got = app.get("/api/v1/resources/Widget.example.com/team-a/w1");
        HttpResponse<String> listed = app.get("/api/v1/resources?kind=Widget.example.com");

        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        assertThat(json(got).path("kind").asText()).isEqualTo("Widget.example.com");
        assertThat(json(got).path("spec").path("size").asText()).isEqualTo("small");
        assertThat(json(listed).path("items")).extracting(i -> i.path("metadata").path("name").asText()).containsExactly("w1");
    }

    @Test
    void shouldWriteAndReadAClusterScopedKeyUnderTheDashNamespace() throws Exception {
        HttpResponse<String> put = app.put("/api/v1/resources/Region.example.com/-/eu-west", Map.of("spec", Map.of("zones", 3)));
        HttpResponse<String> got = app.get("/api/v1/resources/Region.example.com/-/eu-west");

        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        assertThat(json(got).path("metadata").path("namespace").asText()).isEmpty();
        assertThat(json(got).path("spec").path("zones").asInt()).isEqualTo(3);
    }

    @Test
    void shouldRefuseTheDefaultGroupWrittenOutAndAMalformedGroup() {
        HttpResponse<String> spelled = app.put("/api/v1/resources/WebApp.statesync.io/default/a", Map.of("spec", Map.of()));
        HttpResponse<String> malformed = app.put("/api/v1/resources/Widget.Example..com/default/a", Map.of("spec", Map.of()));

        assertThat(spelled.statusCode()).isEqualTo(400);
        assertThat(spelled.body()).contains("kind must match");
        assertThat(malformed.statusCode()).isEqualTo(400);
    }
}
