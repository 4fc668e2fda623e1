package io.statesync.bench.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The ceiling: one plain consumer reading the same input partitions as bytes, no group, no deserialisation. */
final class RawConsumer {

    private RawConsumer() {
    }

    /** Records per second to read {@code ends} from the beginning. */
    static double recordsPerSecond(String bootstrap, Map<TopicPartition, Long> ends) {
        long total = Offsets.total(ends);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
            new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>(ends.keySet());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long start = System.nanoTime();
            long seen = 0;
            while (seen < total) {
                seen += consumer.poll(Duration.ofMillis(100)).count();
            }
            return total / ((System.nanoTime() - start) / 1e9);
        }
    }
}
