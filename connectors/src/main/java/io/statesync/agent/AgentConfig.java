package io.statesync.agent;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Settings of a {@link StatesyncAgent}. Keys prefixed {@code consumer.} and {@code producer.} pass through to the
 * Kafka clients; {@code schema.registry.*} settings pass through to the Avro serde.
 */
public final class AgentConfig extends AbstractConfig {

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String GROUP_ID = "agent.group.id";
    public static final String REPORTER = "agent.reporter";
    public static final String KINDS = "agent.kinds";
    public static final String CONCURRENCY = "agent.concurrency";
    public static final String MAX_IN_FLIGHT = "agent.max.in.flight";
    public static final String RESYNC_INTERVAL_MS = "agent.resync.interval.ms";
    public static final String POLL_TIMEOUT_MS = "agent.poll.timeout.ms";
    public static final String APPLY_TIMEOUT_MS = "agent.apply.timeout.ms";

    private static final ConfigDef DEF = new ConfigDef()
        .define(BOOTSTRAP_SERVERS, Type.STRING, "127.0.0.1:9092", Importance.HIGH, "Kafka bootstrap servers.")
        .define(SCHEMA_REGISTRY_URL, Type.STRING, "http://127.0.0.1:8081/apis/ccompat/v7", Importance.HIGH,
            "Confluent-compatible schema registry URL; mock://scope for an in-process registry.")
        .define(TOPIC_PREFIX, Type.STRING, "statesync.", Importance.MEDIUM, "Prefix of the statesync topics.")
        .define(GROUP_ID, Type.STRING, "statesync-agent", Importance.HIGH,
            "Consumer group; agents sharing it split the corrections partitions between them.")
        .define(REPORTER, Type.STRING, "statesync-agent", Importance.LOW, "The reporter field of ObservedState.")
        .define(KINDS, Type.LIST, "", Importance.MEDIUM,
            "Kinds to manage, overriding ResourceAgent.kinds() when set; empty means the agent's own set.")
        .define(CONCURRENCY, Type.INT, 8, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
            "Applies running at once; applies for one key never overlap.")
        .define(MAX_IN_FLIGHT, Type.INT, 1000, ConfigDef.Range.atLeast(1), Importance.LOW,
            "Uncommitted corrections held before the consumer pauses.")
        .define(RESYNC_INTERVAL_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
            "How often list() is reported to catch drift; 0 disables resync.")
        .define(POLL_TIMEOUT_MS, Type.LONG, 100L, ConfigDef.Range.atLeast(1), Importance.LOW,
            "Consumer poll timeout; bounds how late a finished apply is committed.")
        .define(APPLY_TIMEOUT_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
            "How long one apply may take before it counts as a transient failure: it is reported failed (and retried "
                + "with backoff), the key's next correction proceeds, and the late outcome is ignored.");

    public AgentConfig(Map<String, ?> props) {
        super(DEF, props);
    }

    public static ConfigDef configDef() {
        return DEF;
    }

    public String correctionsTopic() {
        return getString(TOPIC_PREFIX) + "corrections";
    }

    public String observedTopic() {
        return getString(TOPIC_PREFIX) + "observed";
    }

    /** Where an agent's child resources ({@link ChildWriter}) are written. */
    public String desiredTopic() {
        return getString(TOPIC_PREFIX) + "desired";
    }

    public Set<String> kindsOverride() {
        return new HashSet<>(getList(KINDS));
    }

    public Duration resyncInterval() {
        return Duration.ofMillis(getLong(RESYNC_INTERVAL_MS));
    }

    public Duration applyTimeout() {
        return Duration.ofMillis(getLong(APPLY_TIMEOUT_MS));
    }

    public Duration pollTimeout() {
        return Duration.ofMillis(getLong(POLL_TIMEOUT_MS));
    }

    /** Settings for the Avro serde: the registry URL and everything under the registry and auth prefixes. */
    public Map<String, Object> serdeConfig() {
        Map<String, Object> out = new HashMap<>();
        originals().forEach((k, v) -> {
            if (k.startsWith("schema.registry.") || k.startsWith("basic.auth.") || k.startsWith("bearer.auth.")) {
                out.put(k, v);
            }
        });
        out.put(SCHEMA_REGISTRY_URL, getString(SCHEMA_REGISTRY_URL));
        return out;
    }

    public Map<String, Object> consumerOverrides() {
        return originalsWithPrefix("consumer.");
    }

    public Map<String, Object> producerOverrides() {
        return originalsWithPrefix("producer.");
    }
}
