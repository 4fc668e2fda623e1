package io.statesync.topology.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopologyNames;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An Error while processing one record becomes an exception the DLQ handler quarantines, instead of ending the thread. */
class QuarantiningProcessorTest {

    private static int recurse(int n) {
        return recurse(n + 1) + 1;
    }

    @Test
    void shouldTurnAStackOverflowWhileProcessingIntoAQuarantinedInput() {
        Processor<byte[], byte[], Object, Object> poisoned = record -> recurse(0);
        Processor<byte[], byte[], Object, Object> wrapped = QuarantiningProcessor.wrap(poisoned);
        assertThatThrownBy(() -> wrapped.process(new Record<>(new byte[0], new byte[0], 0L)))
            .isInstanceOf(QuarantiningProcessor.QuarantinedInputException.class)
            .hasCauseInstanceOf(StackOverflowError.class);
    }

    @Test
    void shouldSendAQuarantinedInputToTheDlqWithTheErrorAsItsReasonAndCountIt() {
        ReconcileMetrics metrics = new ReconcileMetrics(new SimpleMeterRegistry());
        DlqProcessingExceptionHandler handler = new DlqProcessingExceptionHandler();
        handler.configure(Map.of(TopologyNames.DLQ_TOPIC_CONFIG, "x.dlq", ReconcileMetrics.CONFIG_KEY, metrics));
        var ctx = new DlqProcessingExceptionHandlerTest.Ctx("x.desired", 0, 3L, new RecordHeaders(), "admission",
            new TaskId(0, 0), 0L, "k".getBytes(StandardCharsets.UTF_8), new byte[] {1});
        var response = handler.handleError(ctx, new Record<>("k", "v", 0L),
            new QuarantiningProcessor.QuarantinedInputException(new StackOverflowError()));
        assertThat(response.result()).isEqualTo(ProcessingExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(r -> {
            assertThat(header(r, StatesyncHeaders.DLQ_ERROR_REASON)).isEqualTo(DlqProcessingExceptionHandler.QUARANTINED);
            assertThat(header(r, StatesyncHeaders.DLQ_ERROR_CLASS)).isEqualTo(StackOverflowError.class.getName());
        });
        assertThat(metrics.registry().get("statesync_quarantined_total").tag("source", "desired").counter().count())
            .isEqualTo(1.0);
    }

    private static String header(org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
