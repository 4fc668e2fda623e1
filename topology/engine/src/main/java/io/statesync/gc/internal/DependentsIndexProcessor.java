package io.statesync.gc.internal;

import io.statesync.gc.CollectedTask;
import io.statesync.gc.CollectedTasks;
import io.statesync.gc.CollectorMetrics;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Reads the dependents index topic in the owners' tasks (it is partitioned by the owner's key): keeps the index and
 * collects dependents whose owner is gone or has another uid, and finishes foreground deletions.
 */
public final class DependentsIndexProcessor implements Processor<String, byte[], Object, Object> {

    private final CollectedTasks tasks;
    private final CollectorMetrics metrics;
    private ProcessorContext<Object, Object> context;
    private Ownership ownership;
    private Collector collector;

    public DependentsIndexProcessor(CollectedTasks tasks, CollectorMetrics metrics) {
        this.tasks = tasks;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        CollectedTask task = tasks.acquire(context);
        this.ownership = new Ownership(context, metrics);
        this.collector = new Collector(task, ownership, metrics);
        collector.recount();
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null || record.key().indexOf('|') < 0) {
            return;
        }
        collector.indexed(record.key(), record.value(), record.timestamp(), context.currentSystemTimeMs());
    }

    @Override
    public void close() {
        if (ownership != null) {
            ownership.forget();
            tasks.release(context);
        }
    }
}
