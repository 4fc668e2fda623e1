package io.statesync.rest;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The committed records of a dead-letter topic on the embedded broker, and their headers, for the abuse tests. */
final class DeadLetterRecords {

    private DeadLetterRecords() {
    }

    /** Every committed record of {@code dlq} from its beginning to its end now (at most 5 s of reading). */
    static List<ConsumerRecord<byte[], byte[]>> read(String dlq) {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers(),
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.GROUP_ID_CONFIG, "dlq-" + UUID.randomUUID());
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(dlq).stream().map(p -> new TopicPartition(dlq, p.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.currentTimeMillis() + 5_000;
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p)) && System.currentTimeMillis() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    /** The records' {@code name} headers, in order. */
    static List<String> headers(String dlq, String name) {
        return read(dlq).stream().map(r -> header(r, name)).toList();
    }

    /** A header's value as UTF-8, or "" when the record lacks it. */
    static String header(ConsumerRecord<byte[], byte[]> rec, String name) {
        var h = rec.headers().lastHeader(name);
        return h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
