package io.statesync.topology;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.topology.internal.BoundedSerializer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An output over the topics' limit fails where it is serialized ({@link OutputLimits#bounded}): under statesync's
 * Streams properties that is a serialization error, which the production handler turns into a dead letter of the input
 * while the transaction is whole, and the task goes on with the next record.
 */
class BoundedOutputTopologyTest {

    @TempDir
    Path stateDir;

    private static final class Forward implements Processor<byte[], byte[], byte[], byte[]> {
        private ProcessorContext<byte[], byte[]> context;

        @Override
        public void init(ProcessorContext<byte[], byte[]> context) {
            this.context = context;
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            context.forward(record);
        }
    }

    @Test
    void shouldDeadLetterTheInputOfAnOutputOverTheLimitAndGoOnWithTheNextRecord() {
        AppConfig config = new AppConfig(Map.of(AppConfig.SCHEMA_REGISTRY_URL, "mock://bounded",
            AppConfig.STATE_DIR, stateDir.toString()));
        TopicNames topics = new TopicNames(config.topicPrefix());
        Topology t = new Topology();
        t.addSource("in", new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.observed());
        t.addProcessor("forward", Forward::new, "in");
        t.addSink("out", topics.resources(), new ByteArraySerializer(), new BoundedSerializer<>(new ByteArraySerializer(), 100), "forward");
        ReconcileMetrics metrics = new ReconcileMetrics(new SimpleMeterRegistry());
        try (TopologyTestDriver driver = new TopologyTestDriver(t, StatesyncTopology.streamsProperties(config, metrics))) {
            var in = driver.createInputTopic(topics.observed(), new ByteArraySerializer(), new ByteArraySerializer());
            var out = driver.createOutputTopic(topics.resources(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            var dlq = driver.createOutputTopic(topics.dlq(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            in.pipeInput(new byte[] {1}, new byte[101]);
            in.pipeInput(new byte[] {2}, new byte[100]);
            assertThat(out.readRecordsToList()).singleElement().satisfies(r -> assertThat(r.key()).containsExactly(2));
            List<TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.key()).containsExactly(1);
                assertThat(header(d, StatesyncHeaders.DLQ_ERROR_REASON)).isEqualTo(WriteAdmission.OUTPUT_TOO_LARGE);
                assertThat(header(d, StatesyncHeaders.DLQ_ERROR_MESSAGE)).contains("101 bytes, more than the 100");
            });
        }
        assertThat(metrics.registry().get("statesync_dlq_records_total").counters())
            .extracting(c -> c.getId().getTag("source") + "=" + c.count()).contains("observed=1.0");
    }

    @Test
    void shouldBoundTheSinksToTheLargestRecordLessWhatKeyAndHeadersTake() {
        AppConfig config = new AppConfig(Map.of(AppConfig.SCHEMA_REGISTRY_URL, "mock://bounded", AppConfig.SPEC_MAX_BYTES, 65_536));
        var bounded = OutputLimits.bounded(Serdes.ByteArray().serializer(), config);
        int limit = OutputLimits.maxRecordBytes(config) - OutputLimits.KEY_AND_HEADERS_BYTES;
        assertThat(bounded.serialize("t", new byte[limit])).hasSize(limit);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> bounded.serialize("t", new byte[limit + 1]))
            .isInstanceOf(BoundedSerializer.OutputTooLargeException.class);
    }

    private static String header(TestRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
