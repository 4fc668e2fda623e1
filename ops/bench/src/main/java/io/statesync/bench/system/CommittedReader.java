package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.config.AppConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** A consumer that reads one output topic as a user would: read_committed, every partition, no group. */
final class CommittedReader {

    private CommittedReader() {
    }

    /** Assigned to every partition of {@code topic}, from the beginning or from the current end. */
    static KafkaConsumer<byte[], byte[]> open(AppConfig config, String topic, boolean fromEnd) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)),
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000),
            new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        consumer.assign(partitions);
        if (fromEnd) {
            consumer.seekToEnd(partitions);
            // Resolve the end now, so that nothing written after this returns can be skipped.
            partitions.forEach(consumer::position);
        } else {
            consumer.seekToBeginning(partitions);
        }
        return consumer;
    }
}
