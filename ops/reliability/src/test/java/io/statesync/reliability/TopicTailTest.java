package io.statesync.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.statesync.avro.DesiredState;
import io.statesync.config.AppConfig;
import io.statesync.registry.MockSchemaRegistry;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A tail decodes each record itself: one that does not decode is skipped, counted and reported, and the tail goes on. */
class TopicTailTest {

    private static final String SCOPE = "topic-tail-test";
    private static final String TOPIC = "statesync.desired";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);

    private final TopologySerdes serdes = new TopologySerdes(new AppConfig(Map.of(AppConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE)));
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");

    @AfterEach
    void forgetRegistry() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void shouldSkipCountAndReportAnUndecodableRecordAndGoOnWithTheRecordsAfterIt() throws Exception {
        List<ConsumerRecord<String, DesiredState>> seen = new CopyOnWriteArrayList<>();
        try (TopicTail<DesiredState> tail = new TopicTail<>(partitioned(), TOPIC, serdes.desired().deserializer(), seen::add)) {
            add(0, "T/default/a", good("T/default/a"));
            // The framing of the Avro serde (magic byte, schema id) around bytes that are not a DesiredState.
            add(1, "T/default/bad", new byte[] {0, 0, 0, 0, 1, (byte) 0xff, (byte) 0xfe, 0x7f});
            add(2, "T/default/b", good("T/default/b"));
            add(3, "T/default/c", good("T/default/c"));

            assertThat(Waits.until(() -> seen.size() == 3, Duration.ofSeconds(10)))
                .as("the records after the bad one reach the callback; seen %s, bad %d", seen, tail.badRecords()).isTrue();
            assertThat(seen).extracting(ConsumerRecord::offset).containsExactly(0L, 2L, 3L);
            assertThat(seen).extracting(ConsumerRecord::key).containsExactly("T/default/a", "T/default/b", "T/default/c");
            assertThat(seen.get(1).value().getName()).isEqualTo("b");
            assertThat(tail.count()).isEqualTo(3);
            assertThat(tail.badRecords()).isEqualTo(1);
            assertThat(tail.badRecordSamples()).singleElement().asString().startsWith(TOPIC + "-0@1: ");
            assertThat(tail.alive()).isTrue();
        }
    }

    @Test
    void shouldFailItsCloseWhenTheCallbackEndedTheThread() throws Exception {
        TopicTail<DesiredState> tail = new TopicTail<>(partitioned(), TOPIC, serdes.desired().deserializer(), r -> {
            throw new IllegalArgumentException("a bug in the callback");
        });
        add(0, "T/default/a", good("T/default/a"));
        assertThat(Waits.until(() -> !tail.alive(), Duration.ofSeconds(10))).isTrue();
        assertThatThrownBy(tail::close).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("stopped on an error").hasRootCauseMessage("a bug in the callback");
    }

    private MockConsumer<byte[], byte[]> partitioned() {
        consumer.updatePartitions(TOPIC, List.of(new PartitionInfo(TOPIC, 0, null, null, null)));
        consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
        return consumer;
    }

    private byte[] good(String key) {
        return serdes.desired().serializer().serialize(TOPIC, BadRecords.desired(key, Map.of("seq", 1)));
    }

    private void add(long offset, String key, byte[] value) {
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, offset, key.getBytes(StandardCharsets.UTF_8), value));
    }
}
