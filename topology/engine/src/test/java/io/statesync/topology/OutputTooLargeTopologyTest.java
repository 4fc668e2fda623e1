package io.statesync.topology;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Admission refuses a write whose outputs could not fit the topics, and sends its input to the DLQ with the reason. */
class OutputTooLargeTopologyTest extends TopologyTestBase {

    private static final String KEY = "WebApp/default/paths";

    /** Under 20 KB, but its 600 fields each repeat a 5,000-character key in their paths: 3 MB per copy. */
    static Map<String, Object> repeatedPaths() {
        Map<String, Object> fields = new HashMap<>();
        for (int i = 0; i < 600; i++) {
            fields.put("f" + i, i);
        }
        return Map.of("k".repeat(5_000), fields);
    }

    private ReconcileEvent answer(String requestId) {
        List<ReconcileEvent> events = f.drainEvents();
        return events.stream().filter(e -> requestId.equals(e.getRequestId())).findFirst().orElseThrow();
    }

    @Test
    void shouldRefuseAWriteWhoseOutputsCouldPassTheRecordLimitAndDeadLetterIt() {
        f.putDesired(TopologyFixture.desiredState(KEY, repeatedPaths()), "big");
        ReconcileEvent refused = answer("big");
        assertThat(refused.getType()).isEqualTo(EventType.Invalid);
        assertThat(refused.getReason()).isEqualTo(WriteAdmission.OUTPUT_TOO_LARGE);
        assertThat(refused.getMessage()).contains("paths");
        assertThat(f.drainResources()).isEmpty();
        List<TestRecord<byte[], byte[]>> dead = f.dlq.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(new String(dead.get(0).headers().lastHeader(StatesyncHeaders.DLQ_ERROR_REASON).value(), StandardCharsets.UTF_8))
            .isEqualTo(WriteAdmission.OUTPUT_TOO_LARGE);
        f.putDesired(TopologyFixture.desiredState(KEY, Map.of("replicas", 1L)), "small");
        assertThat(answer("small").getType()).isEqualTo(EventType.Accepted);
    }
}
