package io.statesync.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologyFixture;
import io.statesync.topology.TopologySerdes;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.ops.PrometheusHelp;
import io.statesync.schemas.Values;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static io.statesync.app.ReconcilePipelineIT.KEY;
import static io.statesync.app.ReconcilePipelineIT.V1;
import static io.statesync.app.ReconcilePipelineIT.V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Runs the reference scenario, then scrapes /metrics over HTTP and checks the counters the scenario implies. */
@ExtendWith(EmbeddedClusterExtension.class)
class MetricsAfterReferenceScenarioIT {

    @TempDir
    Path stateDir;

    @Test
    void shouldExportTheCountersTheReferenceScenarioImplies(EmbeddedCluster cluster) throws Exception {
        AppConfig config = ReconcilePipelineIT.itConfig(cluster, stateDir, "metrics", 2);
        TopicNames topics = new TopicNames(config.topicPrefix());
        TopologySerdes serdes = new TopologySerdes(config);
        Map<String, Resource> latest = new ConcurrentHashMap<>();
        try (StatesyncApp app = new StatesyncApp(config);
             InTestAgent agent = startAfter(app, cluster, serdes, topics);
             var producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()),
                 new StringSerializer(), serdes.desired().serializer());
             var tail = new ReconcilePipelineIT.ResourceTail(cluster.bootstrapServers(), serdes, topics, latest)) {
            producer.send(new ProducerRecord<>(topics.desired(), KEY, TopologyFixture.desiredState(KEY, V1))).get();
            awaitSynced(latest, 1);
            producer.send(new ProducerRecord<>(topics.desired(), KEY, TopologyFixture.desiredState(KEY, V2))).get();
            awaitSynced(latest, 2);
            producer.send(new ProducerRecord<>(topics.desired(), KEY, TopologyFixture.desiredState(KEY, V2))).get();
            Resource r = latest.get(KEY);
            agent.report(KEY, r.getMetadata().getUid(), 2, Values.fromJava(Map.of("image", "nginx:1.21", "replicas", 3L,
                "port", 8080L, "env", Map.of("ENV", "production"))), null);
            await().atMost(Duration.ofSeconds(30)).until(() -> agent.seen.stream().anyMatch(c -> c.getReason() == Reason.Drift));

            String metrics = scrape(app.httpPort());
            assertThat(value(metrics, "statesync_corrections_emitted_total", "action=\"CREATE\",kind=\"WebApp\",reason=\"Missing\"")).isEqualTo(1.0);
            assertThat(value(metrics, "statesync_corrections_emitted_total", "action=\"UPDATE\",kind=\"WebApp\",reason=\"SpecChanged\"")).isEqualTo(1.0);
            assertThat(value(metrics, "statesync_corrections_emitted_total", "action=\"UPDATE\",kind=\"WebApp\",reason=\"Drift\"")).isEqualTo(1.0);
            assertThat(value(metrics, "statesync_admission_total", "result=\"accepted\"")).isEqualTo(2.0);
            assertThat(value(metrics, "statesync_admission_total", "result=\"noop\"")).isEqualTo(1.0);
            assertThat(value(metrics, "statesync_convergence_seconds_count", "kind=\"WebApp\"")).isEqualTo(2.0);
            assertThat(value(metrics, "statesync_dlq_records_total", "source=\"desired\"")).isZero();
            // Every statesync metric of a running instance (reconcile, REST view, watch, request timer) says what it counts;
            // the request timer exists once a request has completed, such as the scrape above.
            metrics = scrape(app.httpPort());
            assertThat(metrics).contains("# TYPE statesync_http_server_requests_seconds", "# TYPE statesync_rest_view_resources",
                "# TYPE statesync_watch_cutoffs_total", "# TYPE statesync_conflicts_total");
            assertThat(PrometheusHelp.familiesWithoutHelp(metrics, "statesync_")).as("statesync metrics with a blank # HELP").isEmpty();
        }
    }

    private static InTestAgent startAfter(StatesyncApp app, EmbeddedCluster cluster, TopologySerdes serdes, TopicNames topics) {
        app.start();
        await().atMost(Duration.ofSeconds(60)).until(app::isRunning);
        return new InTestAgent(cluster.bootstrapServers(), serdes, topics);
    }

    private static void awaitSynced(Map<String, Resource> latest, long generation) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Resource r = latest.get(KEY);
            return r != null && r.getStatus().getSyncStatus() == SyncStatus.Synced
                && r.getStatus().getObservedGeneration() == generation;
        });
    }

    private static String scrape(int port) throws Exception {
        HttpResponse<String> res = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).isEqualTo(200);
        return res.body();
    }

    /** The sample of {@code name} whose label set is exactly {@code labels} (Prometheus text format, labels sorted). */
    private static double value(String scrape, String name, String labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + labels + "}") + " (\\S+)$").matcher(scrape);
        assertThat(m.find()).as("%s{%s} in /metrics", name, labels).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
