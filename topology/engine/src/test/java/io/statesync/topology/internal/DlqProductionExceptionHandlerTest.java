package io.statesync.topology.internal;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TaskFailures;
import io.statesync.topology.TopologyNames;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DlqProductionExceptionHandlerTest {

    private static DlqProductionExceptionHandler handler(ReconcileMetrics metrics) {
        DlqProductionExceptionHandler h = new DlqProductionExceptionHandler();
        h.configure(Map.of(TopologyNames.DLQ_TOPIC_CONFIG, "x.dlq", ReconcileMetrics.CONFIG_KEY, metrics));
        return h;
    }

    @Test
    void shouldSendTheInputOfAnOutputTooLargeToTheDlqAndResume() {
        ReconcileMetrics metrics = new ReconcileMetrics(new SimpleMeterRegistry());
        var ctx = new DlqProcessingExceptionHandlerTest.Ctx("x.desired", 1, 7L, new RecordHeaders(), "admission",
            new TaskId(0, 1), 0L, "k".getBytes(StandardCharsets.UTF_8), new byte[] {4, 2});
        var response = handler(metrics).handleError(ctx, new ProducerRecord<>("x.resources", new byte[0], new byte[9]),
            new RecordTooLargeException("too large"));
        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(r -> {
            assertThat(r.topic()).isEqualTo("x.dlq");
            assertThat(r.value()).containsExactly(4, 2);
            assertThat(new String(r.headers().lastHeader(StatesyncHeaders.DLQ_ERROR_REASON).value(), StandardCharsets.UTF_8))
                .isEqualTo(DlqProductionExceptionHandler.OUTPUT_NOT_PRODUCED);
            assertThat(new String(r.headers().lastHeader(StatesyncHeaders.DLQ_ERROR_MESSAGE).value(), StandardCharsets.UTF_8))
                .contains("x.resources").contains("too large");
        });
        assertThat(metrics.registry().get("statesync_dlq_records_total").tag("source", "desired").counter().count())
            .isEqualTo(1.0);
    }

    @Test
    void shouldRetryARetriableFailureInsteadOfDeadLettering() {
        var ctx = new DlqProcessingExceptionHandlerTest.Ctx("x.desired", 0, 1L, new RecordHeaders(), "admission",
            new TaskId(0, 0), 0L, null, new byte[] {0});
        var response = handler(new ReconcileMetrics(new SimpleMeterRegistry())).handleError(ctx,
            new ProducerRecord<>("x.resources", new byte[0], new byte[1]), new TimeoutException("slow"));
        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RETRY);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldCountATaskFailureOnceWhenItsStreamThreadDiesOfTheOutputTheHandlerFailed() {
        TaskFailures failures = new TaskFailures(Clock.systemUTC());
        DlqProductionExceptionHandler h = new DlqProductionExceptionHandler();
        h.configure(Map.of(TopologyNames.DLQ_TOPIC_CONFIG, "x.dlq", TaskFailures.CONFIG_KEY, failures,
            FailedInputs.CONFIG_KEY, new FailedInputs(3, Clock.systemUTC()),
            StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2));
        for (int attempt = 1; attempt <= 3; attempt++) {
            var ctx = new DlqProcessingExceptionHandlerTest.Ctx("x.desired", 1, 7L, new RecordHeaders(), "admission",
                new TaskId(0, 1), 0L, null, new byte[] {1});
            RecordTooLargeException refused = new RecordTooLargeException("refused " + attempt);
            var response = h.handleError(ctx, new ProducerRecord<>("x.resources", new byte[0], new byte[9]), refused);
            assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.FAIL);
            // What Kafka Streams then hands the stream thread's uncaught-exception handler: the same failure, wrapped.
            failures.threadDied("t-" + attempt, new StreamsException("Error encountered sending record", refused, new TaskId(0, 1)));
            if (attempt < TaskFailures.REPEATS) {
                assertThat(failures.problem()).as("after %d failures of the task", attempt).isNull();
            }
        }
        assertThat(failures.problem()).contains("failed 3 times").contains("task 0_1 at x.desired-1@7");
    }
}
