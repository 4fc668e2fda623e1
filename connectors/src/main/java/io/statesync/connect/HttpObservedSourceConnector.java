package io.statesync.connect;

import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * Polls a JSON list endpoint and produces {@code ObservedState} to {@code statesync.observed}, with a tombstone for
 * every item that disappeared. One list is one stream of truth, so the connector runs a single task.
 */
public class HttpObservedSourceConnector extends SourceConnector {

    private Map<String, String> props;

    @Override
    public void start(Map<String, String> props) {
        new HttpObservedSourceConfig(props); // fail fast on a bad config
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return HttpObservedSourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(props);
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return HttpObservedSourceConfig.configDef();
    }

    @Override
    public String version() {
        return Versions.PLUGIN;
    }
}
