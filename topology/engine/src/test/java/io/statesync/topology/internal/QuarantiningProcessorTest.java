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

    @Test
    void shouldQuarantineARecordChargedWithMaxAttemptsFailuresAndCommitAfterEachRecordUntilPastTheFailure() {
        FailedInputs inputs = new FailedInputs(3, java.time.Clock.systemUTC());
        var context = new org.apache.kafka.streams.processor.api.MockProcessorContext<Object, Object>(
            new java.util.Properties() {{ put(FailedInputs.CONFIG_KEY, inputs); }});
        java.util.List<Long> processed = new java.util.ArrayList<>();
        Processor<byte[], byte[], Object, Object> wrapped = QuarantiningProcessor.wrap(r -> processed.add(r.timestamp()));
        wrapped.init(context);
        var tooLarge = new org.apache.kafka.common.errors.RecordTooLargeException("refused by the broker");
        for (int failure = 1; failure <= 3; failure++) {
            context.setRecordMetadata("x.desired", 0, 7L);
            wrapped.process(new Record<>(new byte[0], new byte[0], 7L));
            inputs.failed(context.taskId().toString(), "x.desired", 0, 7L, tooLarge);
        }
        assertThat(processed).containsExactly(7L, 7L, 7L);
        context.resetCommit();
        context.setRecordMetadata("x.desired", 0, 6L);
        wrapped.process(new Record<>(new byte[0], new byte[0], 6L));
        assertThat(context.committed()).as("a commit after each record while short of the failure").isTrue();
        context.resetCommit();
        context.setRecordMetadata("x.desired", 0, 7L);
        assertThatThrownBy(() -> wrapped.process(new Record<>(new byte[0], new byte[0], 7L)))
            .isInstanceOf(QuarantiningProcessor.QuarantinedInputException.class)
            .hasMessageContaining("3 times").hasCause(tooLarge);
        assertThat(context.committed()).isTrue();
        context.setRecordMetadata("x.desired", 0, 8L);
        wrapped.process(new Record<>(new byte[0], new byte[0], 8L));
        context.resetCommit();
        context.setRecordMetadata("x.desired", 0, 9L);
        wrapped.process(new Record<>(new byte[0], new byte[0], 9L));
        assertThat(context.committed()).as("past the failure: commits at the interval again").isFalse();
        assertThat(processed).containsExactly(7L, 7L, 7L, 6L, 8L, 9L);
    }

    @Test
    void shouldChargeTheCurrentInputInsteadOfDeadLetteringWhenABrokerRefusesAnOutputUnderExactlyOnce() {
        FailedInputs inputs = new FailedInputs(2, java.time.Clock.systemUTC());
        io.statesync.topology.TaskFailures failures = new io.statesync.topology.TaskFailures(java.time.Clock.systemUTC());
        DlqProductionExceptionHandler handler = new DlqProductionExceptionHandler();
        handler.configure(Map.of(io.statesync.topology.TopologyNames.DLQ_TOPIC_CONFIG, "x.dlq", FailedInputs.CONFIG_KEY, inputs,
            io.statesync.topology.TaskFailures.CONFIG_KEY, failures, "processing.guarantee", "exactly_once_v2"));
        var ctx = new DlqProcessingExceptionHandlerTest.Ctx("x.desired", 2, 41L, new RecordHeaders(), "admission",
            new TaskId(0, 2), 0L, "k".getBytes(StandardCharsets.UTF_8), new byte[] {1});
        for (int i = 0; i < 2; i++) {
            var response = handler.handleError(ctx, new org.apache.kafka.clients.producer.ProducerRecord<>("x.resources",
                new byte[0], new byte[9]), new org.apache.kafka.common.errors.RecordTooLargeException("refused"));
            assertThat(response.result()).isEqualTo(org.apache.kafka.streams.errors.ProductionExceptionHandler.Result.FAIL);
        }
        assertThat(inputs.quarantine("x.desired", 2, 41L)).isNotNull();
        assertThat(inputs.quarantine("x.desired", 2, 40L)).isNull();
        assertThat(inputs.commitEach("0_2", "x.desired", 2, 40L)).isTrue();
        failures.threadDied("another", new RuntimeException("x"));
        failures.taskFailed("0_2", "task 0_2 at x.desired-2@41", new RuntimeException("again"));
        assertThat(failures.problem()).contains("failed 4 times").contains("task 0_2 at x.desired-2@41");
    }
}
