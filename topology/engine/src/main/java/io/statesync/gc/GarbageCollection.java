package io.statesync.gc;

import io.statesync.gc.internal.CollectProcessor;
import io.statesync.gc.internal.DependentsIndexProcessor;
import io.statesync.gc.internal.Ownership;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Garbage collection's parts of the topology: the processors of the dependents index (in the owners' tasks) and of the
 * collect commands (in the dependents' tasks), and a task's side of the index for its reconciler. The decisions are
 * the reconciler module's {@code OwnerCollector}.
 */
public final class GarbageCollection {

    private GarbageCollection() {
    }

    /** Keeps the index of the owners a task holds and collects the dependents whose owner is gone. */
    public static Processor<String, byte[], Object, Object> dependentsIndexProcessor(CollectedTasks tasks,
                                                                                      CollectorMetrics metrics) {
        return new DependentsIndexProcessor(tasks, metrics);
    }

    /** Applies the collector's commands to the dependents a task holds. */
    public static Processor<String, byte[], Object, Object> collectProcessor(CollectedTasks tasks, CollectorMetrics metrics) {
        return new CollectProcessor(tasks, metrics);
    }

    /** The index side of the task of {@code context}, forwarding to the dependents and collect sinks. */
    public static DependentsIndex dependentsIndex(ProcessorContext<Object, Object> context, CollectorMetrics metrics) {
        return new Ownership(context, metrics);
    }
}
