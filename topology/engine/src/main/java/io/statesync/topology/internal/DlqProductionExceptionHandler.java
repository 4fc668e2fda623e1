package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.serde.SerdeException;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.TopologyNames;
import io.statesync.topology.TopicNames;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backstop behind admission's size checks: an output record the producer cannot send (larger than the topic or
 * the producer allows, or one that does not serialize) sends the input that produced it to the DLQ, with the reason
 * and the output's topic in headers, and the task goes on. Failing instead would abort the task's transaction, and
 * the same input would fail it again after every restart: a partition stopped for good.
 */
public final class DlqProductionExceptionHandler implements ProductionExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DlqProductionExceptionHandler.class);
    /** The reason header of a dead letter whose output could not be produced. */
    public static final String OUTPUT_NOT_PRODUCED = "OutputNotProduced";

    private String dlqTopic;
    private ReconcileMetrics metrics;

    @Override
    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(TopologyNames.DLQ_TOPIC_CONFIG);
        dlqTopic = topic == null ? new TopicNames("statesync.").dlq() : topic.toString();
        Object m = configs.get(ReconcileMetrics.CONFIG_KEY);
        metrics = m instanceof ReconcileMetrics rm ? rm : new ReconcileMetrics(new SimpleMeterRegistry());
    }

    @Override
    public Response handleError(ErrorHandlerContext ctx, ProducerRecord<byte[], byte[]> record, Exception exception) {
        if (exception instanceof RetriableException) {
            return Response.retry();
        }
        return deadLetter(ctx, record.topic(), exception);
    }

    @Override
    public Response handleSerializationError(ErrorHandlerContext ctx, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof SerdeException se && !se.isBadData()) {
                // The registry is unreachable: not the record's fault, so retry from the last commit.
                return Response.fail();
            }
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
        var headers = DeadLetters.headers(ctx.headers(), OUTPUT_NOT_PRODUCED, exception,
            "the output to " + outputTopic + " could not be produced: " + exception.getMessage(),
            ctx.topic(), ctx.partition(), ctx.offset());
        return Response.resume(List.of(DeadLetters.record(dlqTopic, ctx.sourceRawKey(), ctx.sourceRawValue(), headers)));
    }
}
