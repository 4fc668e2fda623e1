package io.statesync.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * Delivers {@code statesync.corrections} to an HTTP actuator: POST for CREATE, PUT (or PATCH) for UPDATE, DELETE for
 * DELETE, to a URL templated on kind, namespace and name. Failures after retries go to Connect's dead letter queue.
 */
public class HttpCorrectionSinkConnector extends SinkConnector {

    private Map<String, String> props;

    @Override
    public void start(Map<String, String> props) {
        new HttpCorrectionSinkConfig(props); // fail fast on a bad config, before any task starts
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return HttpCorrectionSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>(maxTasks);
        for (int i = 0; i < maxTasks; i++) {
            configs.add(props);
        }
        return configs;
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return HttpCorrectionSinkConfig.configDef();
    }

    @Override
    public String version() {
        return Versions.PLUGIN;
    }
}
