package io.statesync.topology.internal;

import java.time.Clock;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.TopologyNames;
import io.statesync.topology.TaskFailures;
import io.statesync.topology.TopicNames;
import org.apache.kafka.streams.StreamsConfig;

/**
 * What the processing and production exception handlers share, read from the Streams properties that
 * {@link StatesyncTopology#streamsProperties} built: where dead letters go, the instance's meters, its failing tasks
 * and its failed inputs. Properties built elsewhere carry no instance objects: the handler then keeps objects of its
 * own, which nothing exports.
 */
record HandlerSettings(String dlqTopic, ReconcileMetrics metrics, TaskFailures failures, FailedInputs inputs,
                       boolean exactlyOnce) {

    static HandlerSettings from(Map<String, ?> configs) {
        Object topic = configs.get(TopologyNames.DLQ_TOPIC_CONFIG);
        Object m = configs.get(ReconcileMetrics.CONFIG_KEY);
        Object f = configs.get(TaskFailures.CONFIG_KEY);
        Object i = configs.get(FailedInputs.CONFIG_KEY);
        Object guarantee = configs.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        return new HandlerSettings(
            topic == null ? new TopicNames("statesync.").dlq() : topic.toString(),
            m instanceof ReconcileMetrics rm ? rm : new ReconcileMetrics(new SimpleMeterRegistry()),
            f instanceof TaskFailures tf ? tf : new TaskFailures(Clock.systemUTC()),
            i instanceof FailedInputs fi ? fi : new FailedInputs(3, Clock.systemUTC()),
            guarantee != null && !StreamsConfig.AT_LEAST_ONCE.equals(guarantee.toString()));
    }
}
