package io.statesync.rest;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopicNames;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Poison records on the observed topic, written with a plain producer past the REST API: bytes that are no Avro
 * record at all, and a record over spec.max.bytes. Each goes to the DLQ with its reason in the headers, is counted on
 * /metrics, and the partition it sat on goes on admitting writes, also after a restart on the same config.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class PoisonInputAbuseIT {

    /** Low, so that a record over it is still one the broker takes. */
    private static final int SPEC_MAX_BYTES = 65_536;

    @Test
    void shouldDeadLetterPoisonObservationsAndKeepEveryPartitionAdmittingAcrossARestart() throws Exception {
        String prefix = RestTestApp.prefix("poison-input");
        Map<String, Object> config = RestTestApp.config("poison-input", prefix);
        config.put(AppConfig.SPEC_MAX_BYTES, SPEC_MAX_BYTES);
        TopicNames topics = new TopicNames(prefix);
        RestTestApp app = RestTestApp.start(config).as(RestTestApp.WRITER);
        try {
            produce(topics.observed(), "WebApp/default/garbage", new byte[] {0x7f, 0, 0, 0, 42, 1, 2, 3, (byte) 0xff});
            produce(topics.observed(), "WebApp/default/huge", new byte[SPEC_MAX_BYTES + 1]);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(deadLetters(topics.dlq())).contains("Deserialization|" + topics.observed(),
                    "TooLarge|" + topics.observed()));
            String metrics = app.get("/metrics").body();
            assertThat(metrics).containsPattern("statesync_dlq_records_total\\{[^}]*source=\"observed\"[^}]*} [2-9]");
            app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
        } finally {
            app.close();
        }
        RestTestApp.assertEveryPartitionAdmitsAfterARestart(config);
    }

    private static void produce(String topic, String key, byte[] value) throws Exception {
        Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            p.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value)).get();
        }
    }

    /** Each dead letter's reason and source topic, as {@code reason|topic}. */
    private static List<String> deadLetters(String dlq) {
        return DeadLetterRecords.read(dlq).stream().map(rec -> DeadLetterRecords.header(rec, StatesyncHeaders.DLQ_ERROR_REASON)
            + "|" + DeadLetterRecords.header(rec, StatesyncHeaders.DLQ_SOURCE_TOPIC)).toList();
    }
}
