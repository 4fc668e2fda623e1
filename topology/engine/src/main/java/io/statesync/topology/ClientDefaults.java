package io.statesync.topology;

import java.util.Properties;

/**
 * How statesync's defaults for Kafka Streams' clients yield to the operator: a key set bare (for every client) or under
 * any prefix that reaches the client in question wins.
 */
public final class ClientDefaults {

    private ClientDefaults() {
    }

    /**
     * Puts {@code key} = {@code value} under the first of {@code prefixes} unless {@code key} is set bare or under any of
     * them, e.g. {@code main.consumer.} then {@code consumer.}.
     */
    public static void putUnlessSet(Properties streamsProps, String key, Object value, String... prefixes) {
        if (streamsProps.containsKey(key)) {
            return;
        }
        for (String prefix : prefixes) {
            if (streamsProps.containsKey(prefix + key)) {
                return;
            }
        }
        streamsProps.put(prefixes[0] + key, value);
    }
}
