package io.statesync.topology.internal;

import io.statesync.avro.ObservedState;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Stores the latest observed state per key, drops stale reports, and reconciles. */
public final class ObservationProcessor implements Processor<byte[], byte[], Object, Object> {

    private final TopologyContext ctx;
    private ProcessorContext<Object, Object> context;
    private InputDecoder<ObservedState> decoder;
    private ReconcileEngine engine;
    private ForwardingOutput output;

    public ObservationProcessor(TopologyContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.decoder = ctx.observedDecoder();
        this.output = new ForwardingOutput(context);
        this.engine = ReconcileEngine.create(ctx, context);
    }

    @Override
    public void close() {
        if (engine != null) {
            ReconcileEngine.release(ctx, context);
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        InputDecoder.Result<ObservedState> result =
            decoder.decode(ctx.topics().observed(), record.headers(), record.key(), record.value());
        if (result instanceof InputDecoder.Bad<ObservedState> bad) {
            output.deadLetter(record, bad);
            ctx.metrics().dlq("observed");
            return;
        }
        InputDecoder.Ok<ObservedState> ok = (InputDecoder.Ok<ObservedState>) result;
        engine.observe(ok.key(), ok.resourceKey(), ok.value(), record.timestamp(), context.currentSystemTimeMs());
    }
}
