package io.statesync.rest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Resource;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The ground truth a watch is checked against: the records of statesync.resources, read_committed. */
public final class ResourceRecords {

    private ResourceRecords() {
    }

    /** The records after {@code from} (per-partition offsets) of namespace {@code ns}, up to the end; tombstones as null. */
    public static List<ConsumerRecord<String, Resource>> after(AppConfig config, long[] from, String ns) {
        TopologySerdes serdes = new TopologySerdes(config);
        String topic = new TopicNames(config.topicPrefix()).resources();
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers(),
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, Resource>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            for (int p = 0; p < from.length; p++) {
                parts.add(new TopicPartition(topic, p));
            }
            c.assign(parts);
            parts.forEach(tp -> c.seek(tp, from[tp.partition()]));
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(500))) {
                    Resource v = r.value() == null ? null : serdes.resource().deserializer().deserialize(topic, r.headers(), r.value());
                    if (r.key().contains("/" + ns + "/")) {
                        out.add(new ConsumerRecord<>(r.topic(), r.partition(), r.offset(), r.key(), v));
                    }
                }
            }
        }
        return out;
    }
}
