package io.statesync.view.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.LoopSupervisor;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The resource view's reader on a real broker: when its listener throws while applying a poll, the reader is started
 * again and reads that poll again, so that the view loses no record and the failure shows on its supervisor.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class TopicReaderRecoveryIT {

    @Test
    void shouldReadAFailedPollAgainAfterTheListenerThrowsAndKeepReading() throws Exception {
        String topic = "reader-recovery-" + UUID.randomUUID().toString().substring(0, 8);
        String bootstrap = EmbeddedClusterExtension.bootstrapServers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        AppConfig config = new AppConfig(Map.of(AppConfig.BOOTSTRAP_SERVERS, bootstrap, AppConfig.APPLICATION_ID, topic,
            AppConfig.LOOP_RESTART_BACKOFF_MS, 50L));
        List<String> applied = new CopyOnWriteArrayList<>();
        AtomicBoolean poisoned = new AtomicBoolean();
        TopicReader reader = new TopicReader(config, topic, bytes -> null, new TopicReader.Listener() {
            @Override
            public long[] assigned(long[] logStart, long[] logEnd) {
                return null;
            }

            @Override
            public void polled(ConsumerRecords<String, byte[]> records, long[] positions) {
                for (var r : records) {
                    if (r.key().equals("poison") && poisoned.compareAndSet(false, true)) {
                        throw new IllegalStateException("listener failed on " + r.key());
                    }
                    applied.add(r.key());
                }
            }

            @Override
            public void caughtUp(long loadStartNanos) {
            }

            @Override
            public void idle() {
            }
        });
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new StringSerializer(), new ByteArraySerializer())) {
            reader.start();
            send(producer, topic, "a");
            await().atMost(Duration.ofSeconds(30)).until(() -> applied.contains("a"));
            send(producer, topic, "poison");
            send(producer, topic, "b");
            await().atMost(Duration.ofSeconds(30)).until(() -> applied.contains("b"));
            send(producer, topic, "c");
            await().atMost(Duration.ofSeconds(30)).until(() -> applied.contains("c"));
        } finally {
            reader.close();
        }
        assertThat(poisoned).isTrue();
        assertThat(reader.loop().restarts()).isEqualTo(1);
        assertThat(applied).as("the failed poll is read again, nothing lost and nothing twice").containsExactly("a", "poison", "b", "c");
        assertThat(reader.loop().state().phase()).isEqualTo(LoopSupervisor.Phase.STOPPED);
    }

    private static void send(KafkaProducer<String, byte[]> producer, String topic, String key) throws Exception {
        producer.send(new ProducerRecord<>(topic, key, key.getBytes(StandardCharsets.UTF_8))).get();
    }
}
