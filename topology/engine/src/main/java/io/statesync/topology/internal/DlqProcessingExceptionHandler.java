package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;

import io.statesync.serde.SerdeException;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.TaskFailures;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KIP-1033/1034 processing exception handler: an unexpected failure while processing one record sends the
 * record's original bytes to the DLQ inside the same transaction and processing resumes, so a poison pill
 * never stops the application.
 */
public final class DlqProcessingExceptionHandler implements ProcessingExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DlqProcessingExceptionHandler.class);

    /**
     * The reason header of an input whose processing raised an Error (a StackOverflowError, an OutOfMemoryError), or
     * that failed its task {@code quarantine.max.attempts} times.
     */
    public static final String QUARANTINED = "Quarantined";

    private String dlqTopic;
    private ReconcileMetrics metrics;
    private TaskFailures failures;

    @Override
    public void configure(Map<String, ?> configs) {
        HandlerSettings settings = HandlerSettings.from(configs);
        dlqTopic = settings.dlqTopic();
        metrics = settings.metrics();
        failures = settings.failures();
    }

    @Override
    public Response handleError(ErrorHandlerContext ctx, Record<?, ?> record, Exception exception) {
        if (SerdeException.registryFailureIn(exception) != null) {
            // Not the record's fault: fail the task so that the thread is replaced and the record retried, rather
            // than dead-lettering every record while the registry is down.
            LOG.warn("Schema registry unavailable while processing {}-{}@{}; retrying from the last commit: {}",
                ctx.topic(), ctx.partition(), ctx.offset(), exception.toString());
            failures.taskFailed(String.valueOf(ctx.taskId()), "task " + ctx.taskId() + " at " + ctx.topic() + "-" + ctx.partition() + "@" + ctx.offset(), exception);
            return Response.fail();
        }
        LOG.error("Processing failed for a record from {}-{}@{} (node {}); sent to {}",
            ctx.topic(), ctx.partition(), ctx.offset(), ctx.processorNodeId(), dlqTopic, exception);
        metrics.dlq(ctx.topic() == null ? "unknown" : ctx.topic());
        metrics.quarantined(ctx.topic() == null ? "unknown" : ctx.topic());
        // An Error the processor boundary caught, or the failure that kept failing the task, is named by its own
        // class, the reason every operator searches for.
        boolean error = exception instanceof QuarantiningProcessor.QuarantinedInputException;
        var headers = DeadLetters.headers(ctx.headers(), error ? QUARANTINED : "ProcessingError",
            error ? exception.getCause() : exception, exception.getMessage(), ctx.topic(), ctx.partition(), ctx.offset());
        return Response.resume(List.of(DeadLetters.record(dlqTopic, ctx.sourceRawKey(), ctx.sourceRawValue(), headers)));
    }

}
