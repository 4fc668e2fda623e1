package io.statesync.reliability;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * What a scenario runs against: the app's config (for topic names and serdes), the client properties of the
 * cluster, and a liveness probe of the app under test.
 */
public record ScenarioTarget(AppConfig config, BooleanSupplier appRunning) {

    public TopicNames topics() {
        return new TopicNames(config.topicPrefix());
    }

    public TopologySerdes serdes() {
        return new TopologySerdes(config);
    }

    /** Plain client properties: bootstrap servers plus any {@code kafka.*} pass-through (e.g. SSL). */
    public Map<String, Object> clientProps() {
        Map<String, Object> props = new HashMap<>(config.originalsWithPrefix(AppConfig.KAFKA_PREFIX));
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        return props;
    }
}
