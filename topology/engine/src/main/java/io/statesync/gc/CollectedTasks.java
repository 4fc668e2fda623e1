package io.statesync.gc;

import org.apache.kafka.streams.processor.api.ProcessorContext;

/** Where the collector's processors find the {@link CollectedTask} of their task, and give it back when they close. */
public interface CollectedTasks {

    CollectedTask acquire(ProcessorContext<Object, Object> context);

    void release(ProcessorContext<Object, Object> context);
}
