package io.statesync.ui;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.rest.JsonRequests;
import io.statesync.server.ServerConfig;
import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;

import static org.awaitility.Awaitility.await;

/** One real instance on the embedded cluster, with writer and reader tokens, the in-test agent and a REST client. */
final class UiInstance implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String WRITER = "w-" + UUID.randomUUID();
    static final String READER = "r-" + UUID.randomUUID();

    final StatesyncApp app;
    final InTestAgent agent;
    final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    UiInstance() throws IOException {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, EmbeddedClusterExtension.bootstrapServers());
        p.put(AppConfig.SCHEMA_REGISTRY_URL, EmbeddedClusterExtension.registryUrl());
        p.put(AppConfig.APPLICATION_ID, "ui-" + suffix);
        p.put(AppConfig.TOPIC_PREFIX, "ui-" + suffix + ".");
        p.put(ServerConfig.TOPIC_PARTITIONS, 3);
        p.put(AppConfig.NUM_STREAM_THREADS, 1);
        p.put(AppConfig.COMMIT_INTERVAL_MS, 50L);
        p.put(ServerConfig.HTTP_PORT, 0);
        p.put(AppConfig.STATE_DIR, Files.createTempDirectory("statesync-ui-it").toString());
        p.put(ServerConfig.AUTH_TOKENS, WRITER + ":writer," + READER + ":reader");
        p.put(ServerConfig.WATCH_BOOKMARK_INTERVAL_MS, 500L);
        AppConfig config = new AppConfig(p);
        app = new StatesyncApp(config);
        app.start();
        base = "http://127.0.0.1:" + app.httpPort();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
            .until(() -> send("GET", "/readyz", null).statusCode() == 200);
        agent = new InTestAgent(EmbeddedClusterExtension.bootstrapServers(), new TopologySerdes(config),
            new TopicNames(config.topicPrefix()));
    }

    /** PUT of a resource with a spec and labels; returns the stored object. */
    JsonNode put(String path, Map<String, Object> spec, Map<String, String> labels, String... headers) {
        HttpResponse<String> r = send("PUT", path, Map.of("metadata", Map.of("labels", labels), "spec", spec), headers);
        if (r.statusCode() >= 300) {
            throw new AssertionError("PUT " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return tree(r.body());
    }

    JsonNode get(String path) {
        return tree(send("GET", path, null).body());
    }

    HttpResponse<String> send(String method, String path, Object body, String... headers) {
        return JsonRequests.send(http, Duration.ofSeconds(30), base + path, WRITER, method, body, "application/json", headers);
    }

    static JsonNode tree(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        agent.close();
        app.close();
    }
}
