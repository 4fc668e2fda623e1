package io.statesync.kube;

import io.statesync.config.ConfigSection;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** The configuration keys the Kubernetes API reads, composed into the application's configuration. */
public final class KubeConfig implements ConfigSection {

    public static final String DEFINITIONS_MAX_COUNT = "kube.definitions.max.count";

    private static final ConfigDef CONFIG = new ConfigDef()
        .define(DEFINITIONS_MAX_COUNT, Type.INT, 10_000, Range.between(1, 1_000_000), Importance.LOW,
            "Most CustomResourceDefinitions the Kubernetes API serves. Creating one more is refused with 403 Forbidden; "
                + "every request of the API reads the definitions, so this bounds what one writer can make each "
                + "request cost.");

    @Override
    public String title() {
        return "Kubernetes API";
    }

    @Override
    public ConfigDef configDef() {
        return CONFIG;
    }
}
