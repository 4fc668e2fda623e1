package io.statesync.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.EmbeddedKafka;
import io.statesync.embedded.EmbeddedRegistry;
import io.statesync.embedded.FreePorts;
import io.statesync.serde.PythonClient;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A fresh install, as {@code ./statesync up --no-agent} makes one: a new broker and registry, statesync started with
 * the default topic names and nothing written. A producer that only fetches the subject's latest schema (Confluent's
 * Python client, through the helper in {@code schemas/}) must be able to write the first desired state. The registry
 * is started only after statesync, so that the start also shows registration waiting for it.
 */
class FreshInstallProducerIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "WebApp/default/shop";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void requirePython() throws Exception {
        PythonClient.assumeAvailable();
    }

    @Test
    void shouldLetAProducerThatOnlyLooksUpSchemasWriteFirst(@TempDir Path dir) throws Exception {
        int registryPort = FreePorts.pick();
        String registryUrl = "http://127.0.0.1:" + registryPort + EmbeddedRegistry.CCOMPAT_PATH;
        try (EmbeddedKafka kafka = EmbeddedKafka.inProcess().start();
             EmbeddedRegistry registry = new EmbeddedRegistry(dir.resolve("registry"), registryPort);
             StatesyncApp app = new StatesyncApp(new AppConfig(config(kafka.bootstrapServers(), registryUrl, dir)))) {
            app.start();
            String base = "http://127.0.0.1:" + app.httpPort();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThat(get(base + "/readyz").body()).contains("topic value schemas not registered yet"));
            assertThat(get(base + "/readyz").statusCode()).isEqualTo(503);

            registry.start();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> get(base + "/readyz").statusCode() == 200);

            new PythonClient(kafka.bootstrapServers(), registryUrl).produce("statesync.desired", List.of(desired()));

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                HttpResponse<String> r = get(base + "/api/v1/resources/" + KEY);
                assertThat(r.statusCode()).isEqualTo(200);
                JsonNode resource = JSON.readTree(r.body());
                assertThat(resource.at("/metadata/name").asText()).isEqualTo("shop");
                assertThat(resource.at("/spec/image").asText()).isEqualTo("nginx:1.21");
                assertThat(resource.at("/spec/replicas").asInt()).isEqualTo(2);
            });
        }
    }

    private static Map<String, Object> config(String bootstrap, String registryUrl, Path dir) throws Exception {
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, bootstrap);
        p.put(AppConfig.SCHEMA_REGISTRY_URL, registryUrl);
        p.put(ServerConfig.TOPIC_PARTITIONS, 3);
        p.put(AppConfig.NUM_STREAM_THREADS, 1);
        p.put(AppConfig.COMMIT_INTERVAL_MS, 50L);
        p.put(ServerConfig.HTTP_PORT, 0);
        p.put(AppConfig.STATE_DIR, Files.createDirectories(dir.resolve("streams")).toString());
        return p;
    }

    private static JsonNode desired() {
        ObjectNode value = JSON.createObjectNode().put("kind", "WebApp").put("namespace", "default").put("name", "shop");
        value.set("spec", JSON.createObjectNode().put("image", "nginx:1.21").put("replicas", 2));
        ObjectNode line = JSON.createObjectNode().put("key", KEY);
        line.set("value", value);
        return line;
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
