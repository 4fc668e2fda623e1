package io.statesync.connect;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/** Settings of the {@link HttpObservedSourceConnector}. JSON pointers follow RFC 6901; "" is the whole node. */
public final class HttpObservedSourceConfig extends AbstractConfig {

    public static final String LIST_URL = "http.list.url";
    public static final String POLL_INTERVAL_MS = "poll.interval.ms";
    public static final String TOPIC = "topic";
    public static final String REPORTER = "reporter";
    public static final String AUTH_HEADER_NAME = "http.auth.header.name";
    public static final String AUTH_HEADER_VALUE = "http.auth.header.value";
    public static final String TIMEOUT_MS = "http.timeout.ms";
    public static final String ITEMS_POINTER = "items.pointer";
    public static final String KIND_POINTER = "kind.pointer";
    public static final String KIND_DEFAULT = "kind.default";
    public static final String NAMESPACE_POINTER = "namespace.pointer";
    public static final String NAMESPACE_DEFAULT = "namespace.default";
    public static final String NAME_POINTER = "name.pointer";
    public static final String STATE_POINTER = "state.pointer";
    public static final String GENERATION_POINTER = "generation.pointer";
    public static final String UID_POINTER = "uid.pointer";
    public static final String STATUS_POINTER = "status.pointer";
    public static final String ACK_POINTER = "ack.pointer";

    private static final ConfigDef DEF = new ConfigDef()
        .define(LIST_URL, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH,
            "URL that lists the observed resources as JSON.")
        .define(POLL_INTERVAL_MS, Type.LONG, 5_000L, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
            "Time between two list calls.")
        .define(TOPIC, Type.STRING, "statesync.observed", Importance.HIGH, "Topic of the ObservedState records.")
        .define(REPORTER, Type.STRING, "http-observed-source", Importance.LOW, "The reporter field of each report.")
        .define(AUTH_HEADER_NAME, Type.STRING, "Authorization", Importance.LOW, "Name of the static auth header.")
        .define(AUTH_HEADER_VALUE, Type.PASSWORD, null, Importance.MEDIUM,
            "Value of the static auth header, e.g. 'Bearer <token>'; unset sends no auth header.")
        .define(TIMEOUT_MS, Type.LONG, 10_000L, ConfigDef.Range.atLeast(1), Importance.LOW, "Request timeout.")
        .define(ITEMS_POINTER, Type.STRING, "/items", Importance.MEDIUM,
            "Pointer to the array of items in the list response; \"\" when the response is the array.")
        .define(KIND_POINTER, Type.STRING, "/kind", Importance.MEDIUM, "Pointer to an item's kind.")
        .define(KIND_DEFAULT, Type.STRING, null, Importance.LOW, "Kind of items that have none at kind.pointer.")
        .define(NAMESPACE_POINTER, Type.STRING, "/metadata/namespace", Importance.MEDIUM,
            "Pointer to an item's namespace.")
        .define(NAMESPACE_DEFAULT, Type.STRING, "default", Importance.LOW,
            "Namespace of items that have none at namespace.pointer.")
        .define(NAME_POINTER, Type.STRING, "/metadata/name", Importance.HIGH, "Pointer to an item's name.")
        .define(STATE_POINTER, Type.STRING, "/spec", Importance.HIGH, "Pointer to an item's observed state.")
        .define(GENERATION_POINTER, Type.STRING, "/metadata/generation", Importance.MEDIUM,
            "Pointer to the generation the item has applied; missing means 0.")
        .define(UID_POINTER, Type.STRING, "/metadata/uid", Importance.LOW, "Pointer to an item's uid; missing means null.")
        .define(STATUS_POINTER, Type.STRING, "/status", Importance.LOW, "Pointer to runtime status; missing means null.")
        .define(ACK_POINTER, Type.STRING, "/metadata/lastCommandId", Importance.LOW,
            "Pointer to the last statesync command id the item applied; missing means null.");

    public HttpObservedSourceConfig(Map<String, ?> props) {
        super(DEF, props);
    }

    public static ConfigDef configDef() {
        return DEF;
    }

    public Duration pollInterval() {
        return Duration.ofMillis(getLong(POLL_INTERVAL_MS));
    }

    public Duration timeout() {
        return Duration.ofMillis(getLong(TIMEOUT_MS));
    }

    /** The secret header value, or null. */
    public Password authHeaderValue() {
        return getPassword(AUTH_HEADER_VALUE);
    }
}
