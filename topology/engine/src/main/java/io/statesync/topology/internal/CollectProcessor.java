package io.statesync.topology.internal;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Applies the collector's commands in the dependents' tasks (the collect topic is keyed by the dependent). */
public final class CollectProcessor implements Processor<String, byte[], Object, Object> {

    private final TopologyContext ctx;
    private ProcessorContext<Object, Object> context;
    private Collector collector;
    private ReconcileEngine.Output out;
    private ReconcileEngine engine;

    public CollectProcessor(TopologyContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.engine = ReconcileEngine.create(ctx, context);
        this.out = engine.output();
        this.collector = new Collector(engine, ctx.metrics().collector());
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null || record.value() == null) {
            return;
        }
        collector.command(record.key(), record.value(), record.timestamp(), context.currentSystemTimeMs(), out);
    }

    @Override
    public void close() {
        if (engine != null) {
            ReconcileEngine.release(ctx, context);
        }
    }
}
