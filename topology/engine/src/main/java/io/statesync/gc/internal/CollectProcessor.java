package io.statesync.gc.internal;

import io.statesync.gc.CollectedTasks;
import io.statesync.gc.CollectorMetrics;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Applies the collector's commands in the dependents' tasks (the collect topic is keyed by the dependent). */
public final class CollectProcessor implements Processor<String, byte[], Object, Object> {

    private final CollectedTasks tasks;
    private final CollectorMetrics metrics;
    private ProcessorContext<Object, Object> context;
    private Collector collector;

    public CollectProcessor(CollectedTasks tasks, CollectorMetrics metrics) {
        this.tasks = tasks;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.collector = new Collector(tasks.acquire(context), new Ownership(context, metrics), metrics);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null || record.value() == null) {
            return;
        }
        collector.command(record.key(), record.value(), record.timestamp(), context.currentSystemTimeMs());
    }

    @Override
    public void close() {
        if (collector != null) {
            tasks.release(context);
        }
    }
}
