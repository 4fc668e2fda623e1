package io.statesync.topology.internal;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The boundary around a processor of client input: a StackOverflowError or OutOfMemoryError while processing one
 * record is turned into a {@link QuarantinedInputException}, which the processing exception handler sends to the DLQ
 * with the error as its reason. An Error would otherwise pass that handler by, end the stream thread, and meet the
 * same record again in its replacement: a partition stopped for good. Both are safe to catch here, since the stack has
 * unwound and whatever the record allocated is garbage by the time the handler runs.
 */
public final class QuarantiningProcessor<KIn, VIn, KOut, VOut> implements Processor<KIn, VIn, KOut, VOut> {

    private final Processor<KIn, VIn, KOut, VOut> inner;

    private QuarantiningProcessor(Processor<KIn, VIn, KOut, VOut> inner) {
        this.inner = inner;
    }

    public static <KIn, VIn, KOut, VOut> Processor<KIn, VIn, KOut, VOut> wrap(Processor<KIn, VIn, KOut, VOut> inner) {
        return new QuarantiningProcessor<>(inner);
    }

    /** A record whose processing raised an Error; the cause is that Error. */
    public static final class QuarantinedInputException extends RuntimeException {
        public QuarantinedInputException(Error cause) {
            super("processing the record raised " + cause.getClass().getName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause, false, false);
        }
    }

    @Override
    public void init(ProcessorContext<KOut, VOut> context) {
        inner.init(context);
    }

    @Override
    public void process(Record<KIn, VIn> record) {
        try {
            inner.process(record);
        } catch (StackOverflowError | OutOfMemoryError e) {
            throw new QuarantinedInputException(e);
        }
    }

    @Override
    public void close() {
        inner.close();
    }
}
