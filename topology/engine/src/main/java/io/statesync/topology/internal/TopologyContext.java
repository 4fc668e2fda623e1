package io.statesync.topology.internal;

import java.time.Clock;
import java.util.List;

import io.statesync.avro.DesiredState;
import io.statesync.avro.ObservedState;
import io.statesync.config.AppConfig;
import io.statesync.gc.CollectedTask;
import io.statesync.gc.CollectedTasks;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * What every processor of one topology shares: config, topic names, serdes, metrics, the clock, and the reconciler of
 * each of its tasks.
 */
public record TopologyContext(AppConfig config, TopicNames topics, TopologySerdes serdes, ReconcileMetrics metrics, Clock clock,
                              TaskReconcilers reconcilers) {

    public TopologyContext(AppConfig config, TopicNames topics, TopologySerdes serdes, ReconcileMetrics metrics, Clock clock) {
        this(config, topics, serdes, metrics, clock, new TaskReconcilers());
    }

    InputDecoder<DesiredState> desiredDecoder() {
        return new InputDecoder<>(serdes.desired().deserializer(),
            d -> ResourceKey.of(d.getKind(), d.getNamespace(), d.getName()),
            d -> List.of(d.getSpec()),
            config.getInt(AppConfig.SPEC_MAX_BYTES), config.getInt(AppConfig.SPEC_MAX_DEPTH));
    }

    InputDecoder<ObservedState> observedDecoder() {
        return new InputDecoder<>(serdes.observed().deserializer(),
            o -> ResourceKey.of(o.getKind(), o.getNamespace(), o.getName()),
            o -> o.getState() == null ? List.of() : List.of(o.getState()),
            config.getInt(AppConfig.SPEC_MAX_BYTES), config.getInt(AppConfig.SPEC_MAX_DEPTH));
    }

    /** The task of a garbage collection processor, as the engine gives it: the task's one reconciler. */
    public CollectedTasks collectedTasks() {
        TopologyContext ctx = this;
        return new CollectedTasks() {
            @Override
            public CollectedTask acquire(ProcessorContext<Object, Object> context) {
                return ReconcileEngine.create(ctx, context);
            }

            @Override
            public void release(ProcessorContext<Object, Object> context) {
                ReconcileEngine.release(ctx, context);
            }
        };
    }
}
