package io.statesync.topology.internal;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Reads the dependents index topic in the owners' tasks (it is partitioned by the owner's key): keeps the index and
 * collects dependents whose owner is gone or has another uid, and finishes foreground deletions.
 */
public final class DependentsIndexProcessor implements Processor<String, byte[], Object, Object> {

    private final TopologyContext ctx;
    private ProcessorContext<Object, Object> context;
    private Collector collector;
    private ReconcileEngine.Output out;
    private ReconcileEngine engine;

    public DependentsIndexProcessor(TopologyContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.engine = ReconcileEngine.create(ctx, context);
        this.out = engine.output();
        this.collector = new Collector(engine, ctx.metrics().collector());
        collector.recount();
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null || record.key().indexOf('|') < 0) {
            return;
        }
        collector.indexed(record.key(), record.value(), record.timestamp(), context.currentSystemTimeMs(), out);
    }

    @Override
    public void close() {
        if (engine != null) {
            engine.ownership().forget();
            ReconcileEngine.release(ctx, context);
        }
    }
}
