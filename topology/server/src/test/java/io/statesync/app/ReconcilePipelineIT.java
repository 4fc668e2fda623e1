package io.statesync.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologyFixture;
import io.statesync.topology.TopologySerdes;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.schemas.Values;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The reference scenario end to end on a real broker and registry, with an app restart in the middle. */
@ExtendWith(EmbeddedClusterExtension.class)
class ReconcilePipelineIT {

    static final String KEY = "WebApp/default/test-webapp";
    static final Map<String, Object> V1 = Map.of("image", "nginx:1.20", "replicas", 2L, "port", 80L, "env", Map.of("ENV", "production"));
    static final Map<String, Object> V2 = Map.of("image", "nginx:1.21", "replicas", 5L, "port", 8080L, "env", Map.of("ENV", "production"));

    @TempDir
    Path stateDir;

    @Test
    void shouldConvergeReferenceScenarioAcrossAnAppRestartWithoutDuplicateCorrections(EmbeddedCluster cluster) throws Exception {
        AppConfig config = itConfig(cluster, stateDir, "it", 3);
        TopicNames topics = new TopicNames(config.topicPrefix());
        TopologySerdes serdes = new TopologySerdes(config);
        Map<String, Resource> latest = new ConcurrentHashMap<>();

        StatesyncApp app = startApp(config);
        try (InTestAgent agent = new InTestAgent(cluster.bootstrapServers(), serdes, topics);
             var producer = desiredProducer(cluster.bootstrapServers(), serdes);
             var resources = new ResourceTail(cluster.bootstrapServers(), serdes, topics, latest)) {
            producer.send(new ProducerRecord<>(topics.desired(), KEY, desired(V1))).get();
            awaitSynced(latest, 1);

            app.close();
            app = startApp(config);

            producer.send(new ProducerRecord<>(topics.desired(), KEY, desired(V2))).get();
            awaitSynced(latest, 2);
            Resource r = latest.get(KEY);
            agent.report(KEY, r.getMetadata().getUid(), 2, Values.fromJava(Map.of("image", "nginx:1.21", "replicas", 3L,
                "port", 8080L, "env", Map.of("ENV", "production"))), null);
            await().atMost(Duration.ofSeconds(30)).until(() -> agent.seen.stream().anyMatch(c -> c.getReason() == Reason.Drift));
            await().atMost(Duration.ofSeconds(30)).until(() -> Values.toJava(agent.world.get(KEY)).equals(V2));

            List<Correction> update = agent.seen.stream().filter(c -> c.getGeneration() == 2 && c.getReason() == Reason.SpecChanged).toList();
            assertThat(update).hasSize(1);
            assertThat(update.get(0).getPatch()).extracting(op -> String.join(".", op.getPath()))
                .containsExactlyInAnyOrder("image", "replicas", "port");
            Set<String> ids = agent.seen.stream().map(c -> c.getUid() + "/" + c.getGeneration() + "/" + c.getAttempt() + "/" + c.getReason())
                .collect(Collectors.toSet());
            assertThat(ids).as("no duplicate per (uid, generation, attempt, reason)").hasSize(agent.seen.size());
        } finally {
            app.close();
        }
    }

    /** An instance of its own on the shared cluster: unique topics and application id, ephemeral REST port. */
    static AppConfig itConfig(EmbeddedCluster cluster, Path stateDir, String name, int partitions) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> props = new HashMap<>();
        props.put(AppConfig.BOOTSTRAP_SERVERS, cluster.bootstrapServers());
        props.put(AppConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        props.put(AppConfig.TOPIC_PREFIX, name + "-" + suffix + ".");
        props.put(AppConfig.APPLICATION_ID, "statesync-" + name + "-" + suffix);
        props.put(AppConfig.STATE_DIR, stateDir.toString());
        props.put(AppConfig.HTTP_PORT, 0);
        props.put(AppConfig.TOPIC_PARTITIONS, partitions);
        props.put(AppConfig.NUM_STREAM_THREADS, 1);
        return new AppConfig(props);
    }

    private static StatesyncApp startApp(AppConfig config) {
        StatesyncApp app = new StatesyncApp(config);
        app.start();
        await().atMost(Duration.ofSeconds(60)).until(app::isRunning);
        return app;
    }

    private static void awaitSynced(Map<String, Resource> latest, long generation) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Resource r = latest.get(KEY);
            return r != null && r.getStatus().getSyncStatus() == SyncStatus.Synced
                && r.getStatus().getObservedGeneration() == generation;
        });
    }

    private static DesiredState desired(Map<String, Object> spec) {
        return TopologyFixture.desiredState(KEY, spec);
    }

    private static KafkaProducer<String, DesiredState> desiredProducer(String bootstrap, TopologySerdes serdes) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(), serdes.desired().serializer());
    }

    /** Follows statesync.resources (read_committed) into a map of the latest Resource per key. */
    static final class ResourceTail implements AutoCloseable {
        private final KafkaConsumer<String, Resource> consumer;
        private final Thread thread;
        private volatile boolean running = true;

        ResourceTail(String bootstrap, TopologySerdes serdes, TopicNames topics, Map<String, Resource> latest) {
            consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "tail-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), serdes.resource().deserializer());
            consumer.subscribe(List.of(topics.resources()));
            thread = new Thread(() -> {
                while (running) {
                    consumer.poll(Duration.ofMillis(100)).forEach(r -> {
                        if (r.value() == null) {
                            latest.remove(r.key());
                        } else {
                            latest.put(r.key(), r.value());
                        }
                    });
                }
                consumer.close();
            }, "resource-tail");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(10_000);
        }
    }
}
