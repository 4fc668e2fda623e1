package io.statesync.topology.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * The {@link TaskReconciler} of each stream task of one topology, shared by the task's processors. Kafka Streams creates
 * a processor instance per task and node and hands every processor of a task the task's one processor context; the
 * first processor to start creates the task's reconciler, the others find it, and it goes when the last one closes.
 * A task that starts again (after a rebalance or a failure) has a new context, so it gets a new reconciler even when
 * the old one's processors never closed. Stream threads start and close tasks concurrently, hence the concurrent map;
 * a reconciler itself is used by its task's thread only.
 */
public final class TaskReconcilers {

    /** A task's reconciler, the context it was made from and how many of the task's processors hold it. */
    private static final class Entry {
        final Object context;
        final TaskReconciler reconciler;
        int holders;

        Entry(Object context, TaskReconciler reconciler) {
            this.context = context;
            this.reconciler = reconciler;
        }
    }

    private final Map<String, Entry> byTask = new ConcurrentHashMap<>();

    /** The reconciler of {@code pc}'s task, made by {@code create} for the task's first processor. */
    TaskReconciler acquire(ProcessorContext<Object, Object> pc, Function<ProcessorContext<Object, Object>, TaskReconciler> create) {
        // The map's compute runs atomically per task, so the holders need no lock of their own.
        return byTask.compute(pc.taskId().toString(), (task, old) -> {
            Entry e = old != null && old.context == pc ? old : new Entry(pc, create.apply(pc));
            e.holders++;
            return e;
        }).reconciler;
    }

    /** One of the task's processors closed; the reconciler goes with the last one. */
    void release(ProcessorContext<Object, Object> pc) {
        byTask.computeIfPresent(pc.taskId().toString(), (task, e) -> {
            if (e.context != pc) {
                return e;
            }
            return --e.holders <= 0 ? null : e;
        });
    }

    /** How many tasks hold a reconciler now. */
    int size() {
        return byTask.size();
    }
}
