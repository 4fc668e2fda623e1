package io.statesync.topology.internal;

import java.time.Clock;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The boundary around a processor of client input, where a record that would stop its partition for good is
 * quarantined: sent to the DLQ by the processing exception handler with the reason {@code Quarantined}, and the task
 * goes on.
 * <ul>
 *   <li>A StackOverflowError or OutOfMemoryError while processing one record becomes a
 *       {@link QuarantinedInputException}. An Error would otherwise pass that handler by, end the stream thread, and
 *       meet the same record again in its replacement. Both are safe to catch here, since the stack has unwound and
 *       whatever the record allocated is garbage by the time the handler runs.</li>
 *   <li>A record charged with {@code quarantine.max.attempts} failures of its task ({@link FailedInputs}: under
 *       exactly-once, outputs the broker refused) is not processed again but quarantined with the last failure as its
 *       cause. After such a failure the task commits after every record until it is past the failure's point, so that
 *       the next failure is charged to the one record that causes it, not to the batch around it.</li>
 * </ul>
 */
public final class QuarantiningProcessor<KIn, VIn, KOut, VOut> implements Processor<KIn, VIn, KOut, VOut> {

    private final Processor<KIn, VIn, KOut, VOut> inner;
    private ProcessorContext<KOut, VOut> context;
    private FailedInputs inputs;

    private QuarantiningProcessor(Processor<KIn, VIn, KOut, VOut> inner) {
        this.inner = inner;
    }

    public static <KIn, VIn, KOut, VOut> Processor<KIn, VIn, KOut, VOut> wrap(Processor<KIn, VIn, KOut, VOut> inner) {
        return new QuarantiningProcessor<>(inner);
    }

    /** A record whose processing raised an Error, or that kept failing its task; the cause says which. */
    public static final class QuarantinedInputException extends RuntimeException {
        public QuarantinedInputException(Error cause) {
            super("processing the record raised " + cause.getClass().getName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause, false, false);
        }

        public QuarantinedInputException(int failures, Throwable last) {
            super("the record failed its task " + failures + " times (quarantine.max.attempts); the last failure: "
                + last, last, false, false);
        }
    }

    @Override
    public void init(ProcessorContext<KOut, VOut> context) {
        this.context = context;
        Object shared = context.appConfigs().get(FailedInputs.CONFIG_KEY);
        // Properties not built by StatesyncTopology.streamsProperties carry no instance: keep one of the processor's own.
        this.inputs = shared instanceof FailedInputs f ? f : new FailedInputs(3, Clock.systemUTC());
        inner.init(context);
    }

    @Override
    public void process(Record<KIn, VIn> record) {
        RecordMetadata at = context == null ? null : context.recordMetadata().orElse(null);
        if (at != null) {
            inputs.begin(context.taskId().toString(), at.topic(), at.partition(), at.offset());
        }
        try {
            FailedInputs.Charge charge = at == null ? null : inputs.quarantine(at.topic(), at.partition(), at.offset());
            if (charge != null) {
                throw new QuarantinedInputException(charge.count(), charge.last());
            }
            inner.process(record);
        } catch (StackOverflowError | OutOfMemoryError e) {
            throw new QuarantinedInputException(e);
        } finally {
            if (at != null && inputs.commitEach(context.taskId().toString(), at.topic(), at.partition(), at.offset())) {
                context.commit();
            }
        }
    }

    @Override
    public void close() {
        inner.close();
    }
}
