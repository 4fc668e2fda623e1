package io.statesync.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.agent.AgentConfig;
import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import io.statesync.app.StatesyncApp;
import io.statesync.agent.AgentSerdes;
import io.statesync.agent.ChildWriter;
import io.statesync.agent.StatesyncAgent;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.simulator.SimulatedFleet;
import io.statesync.simulator.SimulatorConfig;
import io.statesync.simulator.WebAppAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The seeds' exercise end to end: a WebApp whose agent renders a Deployment and a Service as its children, which the
 * fleet simulator applies (its Deployments become ready one replica at a time). A change of the WebApp patches the
 * children field by field, the WebApp is Healthy once its Deployment has every replica ready, and deleting the WebApp
 * collects its children.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class WebAppChildrenIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WEBAPP = "/api/v1/resources/WebApp/default/test-webapp";
    private static final String DEPLOYMENT = "/api/v1/resources/Deployment/default/test-webapp-deployment";
    private static final String SERVICE = "/api/v1/resources/Service/default/test-webapp-service";

    private final HttpClient http = HttpClient.newHttpClient();
    private String base;

    @TempDir
    Path stateDir;

    @Test
    void shouldRenderPatchAndCollectTheChildrenOfAWebApp(EmbeddedCluster cluster) throws Exception {
        AppConfig config = InstanceConfigs.onCluster(cluster, stateDir, "webapp");
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            base = "http://127.0.0.1:" + app.httpPort();
            await().atMost(Duration.ofSeconds(90)).until(() -> app.restServer().readinessProblems().isEmpty());
            policies();
            Map<String, Object> agent = agentProps(config, "webapp-agent");
            AgentConfig agentConfig = new AgentConfig(agent);
            Map<String, Object> fleetProps = agentProps(config, "fleet");
            fleetProps.put(AgentConfig.KINDS, "Deployment,Service");
            fleetProps.put(SimulatorConfig.READY_STEP_MS, 200L);
            try (ChildWriter children = ChildWriter.create(agentConfig, AgentSerdes.desired(agentConfig));
                 StatesyncAgent webapps = AgentSerdes.agent(new WebAppAgent(children), agentConfig);
                 SimulatedFleet fleet = SimulatedFleet.start(fleetProps)) {
                webapps.start();
                exercise(agentConfig);
            }
        }
    }

    private void exercise(AgentConfig agentConfig) throws Exception {
        send("PUT", WEBAPP, "{\"spec\":{\"image\":\"nginx:1.20\",\"replicas\":2,\"port\":80,\"env\":{\"ENV\":\"production\"}}}");
        JsonNode deployment = awaitJson(DEPLOYMENT, d -> d.path("spec").path("replicas").asInt() == 2);
        assertThat(deployment.path("spec").path("image").asText()).isEqualTo("nginx:1.20");
        assertThat(deployment.path("spec").path("env").path("ENV").asText()).isEqualTo("production");
        assertThat(deployment.path("metadata").path("ownerReferences").get(0).path("name").asText()).isEqualTo("test-webapp");
        assertThat(awaitJson(SERVICE, s -> s.path("spec").path("port").asInt() == 80)).isNotNull();
        awaitJson(WEBAPP, w -> healthy(w, 1));

        send("PUT", WEBAPP, "{\"spec\":{\"image\":\"nginx:1.21\",\"replicas\":5,\"port\":8080,\"env\":{\"ENV\":\"production\"}}}");
        awaitJson(SERVICE, s -> s.path("spec").path("port").asInt() == 8080);
        awaitJson(DEPLOYMENT, d -> d.path("metadata").path("generation").asInt() == 2
            && d.path("status").path("syncStatus").asText().equals("Synced"));
        Correction update = deploymentCorrection(agentConfig, 2);
        List<String> paths = new ArrayList<>();
        update.getPatch().forEach(op -> paths.add(String.join(".", op.getPath())));
        assertThat(update.getAction()).isEqualTo(Action.UPDATE);
        assertThat(paths).as("the generation 2 correction patches what changed and leaves env alone: " + update.getPatch())
            .containsExactlyInAnyOrder("image", "replicas");
        JsonNode webapp = awaitJson(WEBAPP, w -> healthy(w, 2));
        assertThat(webapp.path("status").path("observedGeneration").asInt()).isEqualTo(2);

        // Someone else edits a field the agent's writer applied: the writer's next apply is a conflict, not an overwrite.
        send("PATCH", SERVICE + "?fieldManager=kubectl-edit", "{\"spec\":{\"port\":7070}}", "application/merge-patch+json");
        send("PUT", WEBAPP, "{\"spec\":{\"image\":\"nginx:1.22\",\"replicas\":5,\"port\":9090,\"env\":{\"ENV\":\"production\"}}}");
        awaitJson(DEPLOYMENT, d -> d.path("spec").path("image").asText().equals("nginx:1.22"));
        JsonNode conflicts = awaitJson(SERVICE + "/events", e -> e.toString().contains("FieldManagerConflict"));
        JsonNode service = awaitJson(SERVICE, s -> true);
        assertThat(service.path("spec").path("port").asInt()).isEqualTo(7070);
        assertThat(service.path("metadata").path("managedFields").toString()).contains("kubectl-edit")
            .contains(ChildWriter.DEFAULT_FIELD_MANAGER);
        assertThat(conflicts.toString()).contains(".spec.port");

        send("DELETE", WEBAPP, null);
        await().atMost(Duration.ofSeconds(60)).until(() -> status(WEBAPP) == 404 && status(DEPLOYMENT) == 404
            && status(SERVICE) == 404);
    }

    /** The Deployment child's correction for {@code generation}, read from statesync.corrections. */
    private static Correction deploymentCorrection(AgentConfig agentConfig, long generation) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, agentConfig.getString(AgentConfig.BOOTSTRAP_SERVERS));
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "webapp-it-" + UUID.randomUUID());
        try (KafkaConsumer<String, Correction> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                AgentSerdes.corrections(agentConfig).deserializer())) {
            consumer.subscribe(List.of(agentConfig.correctionsTopic()));
            Correction[] found = new Correction[1];
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (var r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key().equals("Deployment/default/test-webapp-deployment") && r.value().getGeneration() == generation) {
                        found[0] = r.value();
                    }
                }
                return found[0] != null;
            });
            return found[0];
        }
    }

    private static boolean healthy(JsonNode webapp, int generation) {
        JsonNode s = webapp.path("status");
        return s.path("observedGeneration").asInt() == generation && s.path("syncStatus").asText().equals("Synced")
            && s.path("health").path("status").asText().equals("Healthy");
    }

    private void policies() throws Exception {
        send("PUT", "/api/v1/kinds/WebApp", "{\"kind\":\"WebApp\",\"healthRules\":["
            + "{\"status\":\"Progressing\",\"when\":\"children.exists(c, c.health != 'Healthy')\",\"message\":\"children not ready\"},"
            + "{\"status\":\"Healthy\",\"when\":\"size(children) > 0\",\"message\":\"every child healthy\"}]}");
        send("PUT", "/api/v1/kinds/Deployment", "{\"kind\":\"Deployment\",\"healthRules\":["
            + "{\"status\":\"Healthy\",\"when\":\"has(observed.status.readyReplicas) && observed.status.readyReplicas >= desired.replicas\","
            + "\"message\":\"all replicas ready\"},{\"status\":\"Progressing\",\"when\":\"true\",\"message\":\"replicas starting\"}]}");
        send("PUT", "/api/v1/kinds/Service", "{\"kind\":\"Service\",\"healthRules\":["
            + "{\"status\":\"Healthy\",\"when\":\"true\",\"message\":\"applied\"}]}");
    }

    private static Map<String, Object> agentProps(AppConfig config, String name) {
        Map<String, Object> p = new HashMap<>();
        p.put(AgentConfig.BOOTSTRAP_SERVERS, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        p.put(AgentConfig.SCHEMA_REGISTRY_URL, config.getString(AppConfig.SCHEMA_REGISTRY_URL));
        p.put(AgentConfig.TOPIC_PREFIX, config.topicPrefix());
        p.put(AgentConfig.GROUP_ID, name + "-" + config.topicPrefix());
        p.put(AgentConfig.REPORTER, name);
        return p;
    }

    private JsonNode awaitJson(String path, java.util.function.Predicate<JsonNode> done) {
        JsonNode[] last = new JsonNode[1];
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            last[0] = get(path);
            assertThat(done.test(last[0])).as(path + " is " + last[0]).isTrue();
        });
        return last[0];
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(send("GET", path, null).body());
    }

    private int status(String path) throws Exception {
        return send("GET", path, null).statusCode();
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return send(method, path, body, "application/json");
    }

    private HttpResponse<String> send(String method, String path, String body, String contentType) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (body != null) {
            b.header("Content-Type", contentType);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (!method.equals("GET")) {
            assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isBetween(200, 201);
        }
        return r;
    }
}
