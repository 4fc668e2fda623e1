package io.statesync.topology.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.serde.SerdeException;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopologyNames;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DlqProcessingExceptionHandlerTest {

    /** The context Streams hands to the handler; a plain record is enough for this collaborator. */
    record Ctx(String topic, int partition, long offset, Headers headers, String processorNodeId, TaskId taskId,
               long timestamp, byte[] sourceRawKey, byte[] sourceRawValue) implements ErrorHandlerContext {
    }

    @Test
    void shouldResumeAndSendTheOriginalBytesToTheDlqWithReasonHeaders() {
        ReconcileMetrics metrics = new ReconcileMetrics(new SimpleMeterRegistry());
        DlqProcessingExceptionHandler handler = new DlqProcessingExceptionHandler();
        handler.configure(Map.of(TopologyNames.DLQ_TOPIC_CONFIG, "x.dlq", ReconcileMetrics.CONFIG_KEY, metrics));
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace", "abc".getBytes(StandardCharsets.UTF_8));
        Ctx ctx = new Ctx("x.desired", 2, 41L, headers, "admission", new TaskId(0, 2), 0L,
            "k".getBytes(StandardCharsets.UTF_8), new byte[] {9, 9});
        var response = handler.handleError(ctx, new Record<>("k", "v", 0L), new IllegalStateException("boom"));
        assertThat(response.result()).isEqualTo(ProcessingExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(r -> {
            assertThat(r.topic()).isEqualTo("x.dlq");
            assertThat(r.value()).containsExactly(9, 9);
            assertThat(header(r.headers(), StatesyncHeaders.DLQ_ERROR_CLASS)).isEqualTo(IllegalStateException.class.getName());
            assertThat(header(r.headers(), StatesyncHeaders.DLQ_ERROR_MESSAGE)).isEqualTo("boom");
            assertThat(header(r.headers(), StatesyncHeaders.DLQ_SOURCE_OFFSET)).isEqualTo("41");
            assertThat(header(r.headers(), "trace")).isEqualTo("abc");
        });
        assertThat(metrics.registry().get("statesync_dlq_records_total").tag("source", "desired").counter().count())
            .isEqualTo(1.0);
    }

    @Test
    void shouldFailTheTaskInsteadOfDeadLetteringWhenTheRegistryIsUnavailable() {
        DlqProcessingExceptionHandler handler = new DlqProcessingExceptionHandler();
        handler.configure(Map.of(TopologyNames.DLQ_TOPIC_CONFIG, "x.dlq"));
        Ctx ctx = new Ctx("x.desired", 0, 1L, new RecordHeaders(), "admission", new TaskId(0, 0), 0L, null, new byte[] {0});
        var down = new SerdeException("x.desired", SerdeException.Reason.REGISTRY_UNAVAILABLE, 7, "connection refused", null);
        var response = handler.handleError(ctx, new Record<>("k", "v", 0L), new RuntimeException(down));
        assertThat(response.result()).isEqualTo(ProcessingExceptionHandler.Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    private static String header(Headers h, String name) {
        return new String(h.lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
