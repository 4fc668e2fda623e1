package io.statesync.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.DesiredState;
import io.statesync.config.AppConfig;
import io.statesync.schemas.Values;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** How an instance leaves, or keeps, its place in the consumer group when it stops, which decides how fast it restarts. */
@ExtendWith(EmbeddedClusterExtension.class)
class StatesyncAppRestartIT {

    @TempDir
    Path stateDir;

    @Test
    void shouldLeaveTheGroupOnCloseWithDynamicMembership(EmbeddedCluster cluster) throws Exception {
        AppConfig config = config(cluster, "");
        startAndStop(config);

        assertThat(members(cluster, config)).isEmpty();
    }

    @Test
    void shouldStayInTheGroupOnCloseAndBeReplacedOnRestartWithStaticMembership(EmbeddedCluster cluster) throws Exception {
        AppConfig config = config(cluster, "instance-a");
        startAndStop(config);
        assertThat(instanceIds(cluster, config)).containsExactly("instance-a-1");

        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(app::isRunning);
            // The restarted thread took over the old member's place instead of joining next to it.
            assertThat(instanceIds(cluster, config)).containsExactly("instance-a-1");
        }
    }

    @Test
    void shouldIssueHigherResourceVersionsAfterARestartThanBeforeIt(EmbeddedCluster cluster) throws Exception {
        AppConfig config = config(cluster, "");
        long before;
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> ready(app));
            before = putAndReadVersion(app, 1);
            assertThat(putAndReadVersion(app, 2)).isGreaterThan(before);
            before = putAndReadVersion(app, 3);
        }
        // The counter lives in an in-memory store: the new instance restores it from its changelog.
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> ready(app));
            assertThat(putAndReadVersion(app, 4)).isGreaterThan(before);
        }
    }

    @Test
    void shouldServeTheViewItKeptAcrossARestartOnAConfiguredPort(EmbeddedCluster cluster) throws Exception {
        int port = freePort();
        AppConfig config = config(cluster, "", port);
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> ready(app));
            putAndReadVersion(app, 5);
        }
        // With the port configured, the REST port is bound while the streams are created, and the view starts from
        // the snapshot the clean stop wrote, its values mapped from that file.
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> ready(app));
            assertThat(app.httpPort()).isEqualTo(port);
            assertThat(app.streams().metadataForAllStreamsClients())
                .allSatisfy(m -> assertThat(m.hostInfo().port()).isEqualTo(port));
            HttpResponse<String> metrics = get(port, "/metrics");
            assertThat(metrics.body()).contains("statesync_rest_view_snapshot_resources 1.0");
            HttpResponse<String> read = get(port, "/api/v1/resources/WebApp/default/shop");
            assertThat(read.statusCode()).isEqualTo(200);
            assertThat(new ObjectMapper().readTree(read.body()).path("spec").path("replicas").asLong()).isEqualTo(5);
        }
    }

    @Test
    void shouldCountEveryKeptResourceAfterARestartWhoseRecountTakesSeveralSlices(EmbeddedCluster cluster) throws Exception {
        AppConfig config = config(cluster, "");
        int resources = 2_500; // over two partitions: more keys per task than one slice of the recount reads
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> ready(app));
            TopologySerdes serdes = new TopologySerdes(config);
            String topic = new TopicNames(config.topicPrefix()).desired();
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < resources; i++) {
                    DesiredState d = DesiredState.newBuilder().setKind("WebApp").setNamespace("count").setName("r-" + i)
                        .setSpec(Values.fromJava(Map.of("replicas", 1L))).build();
                    producer.send(new ProducerRecord<>(topic, "WebApp/count/r-" + i, serdes.desired().serializer().serialize(topic, d)));
                }
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> countedResources(app.httpPort()) == resources);
        }
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> ready(app));
            // Nothing is reconciled after the restart: only the recount of the kept stores can bring the count back.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(countedResources(app.httpPort())).isEqualTo(resources));
        }
    }

    /** The sum of statesync_resources over its series, as /metrics exports it. */
    private static long countedResources(int port) throws Exception {
        long sum = 0;
        for (String line : get(port, "/metrics").body().split("\n")) {
            if (line.startsWith("statesync_resources{")) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build();
        return HttpClient.newHttpClient().send(get, HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static boolean ready(StatesyncApp app) {
        return app.restServer().readinessProblems().isEmpty();
    }

    private static long putAndReadVersion(StatesyncApp app, int replicas) throws Exception {
        HttpRequest put = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.httpPort() + "/api/v1/resources/WebApp/default/shop"))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"spec\":{\"replicas\":" + replicas + "}}")).build();
        HttpResponse<String> r = HttpClient.newHttpClient().send(put, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 201);
        return Long.parseLong(new ObjectMapper().readTree(r.body()).path("metadata").path("resourceVersion").asText());
    }

    private static void startAndStop(AppConfig config) {
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(app::isRunning);
        }
    }

    private static List<String> instanceIds(EmbeddedCluster cluster, AppConfig config) throws Exception {
        return members(cluster, config).stream().map(m -> m.groupInstanceId().orElse("(dynamic)")).toList();
    }

    private static List<MemberDescription> members(EmbeddedCluster cluster, AppConfig config) throws Exception {
        String group = config.getString(AppConfig.APPLICATION_ID);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
            return List.copyOf(admin.describeConsumerGroups(List.of(group)).all().get().get(group).members());
        }
    }

    private AppConfig config(EmbeddedCluster cluster, String instanceId) {
        return config(cluster, instanceId, 0);
    }

    private AppConfig config(EmbeddedCluster cluster, String instanceId, int port) {
        String name = "restart-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> props = new HashMap<>();
        props.put(AppConfig.BOOTSTRAP_SERVERS, cluster.bootstrapServers());
        props.put(AppConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        props.put(AppConfig.TOPIC_PREFIX, name + ".");
        props.put(AppConfig.APPLICATION_ID, name);
        props.put(AppConfig.STATE_DIR, stateDir.toString());
        props.put(ServerConfig.HTTP_PORT, port);
        props.put(ServerConfig.TOPIC_PARTITIONS, 2);
        props.put(AppConfig.NUM_STREAM_THREADS, 1);
        props.put(ServerConfig.GROUP_INSTANCE_ID, instanceId);
        return new AppConfig(props);
    }
}
