package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;

import io.statesync.serde.SerdeException;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.WriteAdmission;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backstop behind admission's size checks: an output record that does not serialize, or is larger than the topics
 * take ({@link BoundedSerializer}), sends the input that produced it to the DLQ, with the reason and the output's
 * topic in headers, and the task goes on; so does a record the producer or the broker refuses under at-least-once.
 * Under exactly-once such a refusal has already doomed the transaction: the input is charged with the failure
 * ({@link FailedInputs}) and quarantined once it has failed the task {@code quarantine.max.attempts} times, instead of
 * failing it after every restart, a partition stopped for good.
 */
public final class DlqProductionExceptionHandler implements ProductionExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DlqProductionExceptionHandler.class);
    /** The reason header of a dead letter whose output could not be produced. */
    public static final String OUTPUT_NOT_PRODUCED = "OutputNotProduced";

    private HandlerSettings settings;
    private String dlqTopic;
    private ReconcileMetrics metrics;

    @Override
    public void configure(Map<String, ?> configs) {
        settings = HandlerSettings.from(configs);
        dlqTopic = settings.dlqTopic();
        metrics = settings.metrics();
    }

    @Override
    public Response handleError(ErrorHandlerContext ctx, ProducerRecord<byte[], byte[]> record, Exception exception) {
        if (exception instanceof RetriableException) {
            return Response.retry();
        }
        if (settings.exactlyOnce() && ctx != null) {
            return chargeTheInput(ctx, record.topic(), exception);
        }
        return deadLetter(ctx, record.topic(), exception);
    }

    /**
     * Under exactly-once a record the producer or the broker refused has left the transaction unable to commit, so a
     * dead letter sent now would be aborted with it: the task fails, and the input it was processing is charged with
     * the failure, to be quarantined by the processor boundary once it has failed the task often enough.
     */
    private Response chargeTheInput(ErrorHandlerContext ctx, String outputTopic, Exception exception) {
        String where = "task " + ctx.taskId() + (ctx.topic() == null ? ""
            : " at " + ctx.topic() + "-" + ctx.partition() + "@" + ctx.offset());
        LOG.error("An output to {} of {} could not be produced and its transaction cannot commit; the task fails and "
            + "retries, and the input is quarantined after {} such failures: {}", outputTopic, where,
            settings.inputs().maxAttempts(), exception.toString());
        settings.inputs().failed(String.valueOf(ctx.taskId()), ctx.topic(), ctx.partition(), ctx.offset(), exception);
        settings.failures().taskFailed(String.valueOf(ctx.taskId()), where, exception);
        return Response.fail();
    }

    @Override
    public Response handleSerializationError(ErrorHandlerContext ctx, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        if (SerdeException.registryFailureIn(exception) != null) {
            // The registry is unreachable: not the record's fault, so retry from the last commit.
            return Response.fail();
        }
        return deadLetter(ctx, record.topic(), exception);
    }

    private Response deadLetter(ErrorHandlerContext ctx, String outputTopic, Exception exception) {
        String source = ctx == null || ctx.topic() == null ? "unknown" : ctx.topic();
        LOG.error("An output to {} of the record {}-{}@{} could not be produced; its input goes to {}: {}", outputTopic,
            source, ctx == null ? -1 : ctx.partition(), ctx == null ? -1 : ctx.offset(), dlqTopic, exception.toString());
        metrics.dlq(source);
        if (ctx == null || ctx.sourceRawValue() == null) {
            // An output of a punctuation or a changelog write has no input record to keep: the log says what was lost.
            return Response.resume();
        }
        String reason = exception instanceof BoundedSerializer.OutputTooLargeException
            ? WriteAdmission.OUTPUT_TOO_LARGE : OUTPUT_NOT_PRODUCED;
        var headers = DeadLetters.headers(ctx.headers(), reason, exception,
            "the output to " + outputTopic + " could not be produced: " + exception.getMessage(),
            ctx.topic(), ctx.partition(), ctx.offset());
        return Response.resume(List.of(DeadLetters.record(dlqTopic, ctx.sourceRawKey(), ctx.sourceRawValue(), headers)));
    }
}
