package io.statesync.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.statesync.connect.AvroValueConverter;
import io.statesync.connect.FakeActuatorAccess;
import io.statesync.connect.HttpCorrectionSinkConfig;
import io.statesync.connect.HttpCorrectionSinkConnector;
import io.statesync.connect.HttpObservedSourceConfig;
import io.statesync.connect.HttpObservedSourceConnector;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop closed through Kafka Connect: statesync emits corrections, the HTTP sink delivers them to an actuator
 * (a real HTTP server in this test), the HTTP source lists the actuator and reports ObservedState back.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class ConnectLoopIT {

    private static final Duration CONVERGE = Duration.ofSeconds(90);

    private StatesyncHarness statesync;
    private FakeActuatorAccess actuator;
    private InProcessConnectWorker worker;

    @BeforeEach
    void start(EmbeddedCluster cluster, @TempDir Path dir) throws Exception {
        statesync = new StatesyncHarness(cluster.bootstrapServers(), cluster.registryUrl(), dir.resolve("streams"));
        await().atMost(Duration.ofSeconds(60)).until(statesync::isRunning);
        actuator = new FakeActuatorAccess();
        worker = new InProcessConnectWorker(cluster.bootstrapServers(), dir.resolve("connect.offsets"));
        worker.putConnector("corrections-to-http", sinkConfig());
        worker.putConnector("http-to-observed", sourceConfig());
    }

    @AfterEach
    void stop() {
        if (worker != null) {
            worker.close();
        }
        if (actuator != null) {
            actuator.close();
        }
        statesync.close();
    }

    @Test
    void shouldConvergeSpecChangesAndDriftThroughConnect() {
        for (int i = 0; i < 20; i++) {
            statesync.putDesired("WebApp", "default", "web-" + i, Map.of("image", "nginx:1.20", "replicas", 2));
        }
        statesync.flush();
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(500))
            .until(() -> statesync.count(r -> StatesyncHarness.synced(r, 1)) == 20);
        assertThat(actuator.size()).isEqualTo(20);

        statesync.putDesired("WebApp", "default", "web-0", Map.of("image", "nginx:1.21", "replicas", 5));
        statesync.flush();
        await().atMost(CONVERGE).until(() -> StatesyncHarness.synced(statesync.resources.get("WebApp/default/web-0"), 2));
        assertThat(actuator.spec("WebApp/default/web-0").get("replicas").asLong()).isEqualTo(5);

        actuator.spec("WebApp/default/web-1").put("replicas", 9); // drift behind statesync's back
        await().atMost(CONVERGE).until(() -> actuator.spec("WebApp/default/web-1").get("replicas").asLong() == 2);
        await().atMost(CONVERGE).until(() -> StatesyncHarness.synced(statesync.resources.get("WebApp/default/web-1"), 1));
    }

    @Test
    void shouldDeadLetterACorrectionTheActuatorRejects() {
        actuator.reject("WebApp/default/refused");
        statesync.putDesired("WebApp", "default", "refused", Map.of("replicas", 1));
        statesync.flush();

        List<ConsumerRecord<byte[], byte[]>> dead = new ArrayList<>();
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, statesync.bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG, statesync.prefix + "dlq-reader",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(dlqTopic()));
            await().atMost(CONVERGE).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(dead::add);
                return !dead.isEmpty();
            });
        }
        ConsumerRecord<byte[], byte[]> first = dead.get(0);
        assertThat(new String(first.key())).isEqualTo("WebApp/default/refused");
        assertThat(first.headers().lastHeader("__connect.errors.exception.class.name")).isNotNull();
    }

    private String dlqTopic() {
        return statesync.prefix + "connect-dlq";
    }

    private Map<String, String> sinkConfig() {
        Map<String, String> c = converters();
        c.put("connector.class", HttpCorrectionSinkConnector.class.getName());
        c.put("tasks.max", "1");
        c.put("topics", statesync.topics.corrections());
        c.put(HttpCorrectionSinkConfig.URL_TEMPLATE, actuator.urlTemplate());
        c.put(HttpCorrectionSinkConfig.MAX_RETRIES, "2");
        c.put(HttpCorrectionSinkConfig.RETRY_BACKOFF_MS, "50");
        c.put("errors.tolerance", "all");
        c.put("errors.deadletterqueue.topic.name", dlqTopic());
        c.put("errors.deadletterqueue.topic.replication.factor", "1");
        c.put("errors.deadletterqueue.context.headers.enable", "true");
        return c;
    }

    private Map<String, String> sourceConfig() {
        Map<String, String> c = converters();
        c.put("connector.class", HttpObservedSourceConnector.class.getName());
        c.put("tasks.max", "1");
        c.put(HttpObservedSourceConfig.LIST_URL, actuator.listUrl());
        c.put(HttpObservedSourceConfig.TOPIC, statesync.topics.observed());
        c.put(HttpObservedSourceConfig.POLL_INTERVAL_MS, "300");
        return c;
    }

    private Map<String, String> converters() {
        Map<String, String> c = new HashMap<>();
        c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        c.put("value.converter", AvroValueConverter.class.getName());
        c.put("value.converter.schema.registry.url", statesync.registryUrl);
        return c;
    }
}
