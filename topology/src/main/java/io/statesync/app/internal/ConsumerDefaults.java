package io.statesync.app.internal;

import java.util.Properties;

import org.apache.kafka.streams.StreamsConfig;

/** How statesync's consumer defaults yield to the operator: a key set for that consumer, for all consumers, or bare wins. */
final class ConsumerDefaults {

    private ConsumerDefaults() {
    }

    /** Puts {@code prefixedKey} = {@code value} unless {@code key} is set as {@code prefixedKey}, for all consumers, or bare. */
    static void putUnlessSet(Properties streamsProps, String prefixedKey, String key, Object value) {
        boolean set = streamsProps.containsKey(prefixedKey) || streamsProps.containsKey(StreamsConfig.consumerPrefix(key))
            || streamsProps.containsKey(key);
        if (!set) {
            streamsProps.put(prefixedKey, value);
        }
    }
}
