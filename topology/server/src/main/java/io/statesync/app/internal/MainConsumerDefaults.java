package io.statesync.app.internal;

import java.util.Properties;

import io.statesync.topology.ClientDefaults;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * A shorter heartbeat for the stream threads' consumers. A member that already holds its assignment learns that
 * another member has joined only from its next heartbeat, and the group's next generation waits for it. On a restart
 * the first stream thread takes all tasks alone, the second joins a moment later, and the rebalance that shares the
 * tasks starts only at the first thread's next heartbeat, up to 3 s (the consumer default) afterwards. A heartbeat
 * every 500 ms bounds that wait at half a second for two requests a second per thread.
 * A value the operator set (with the {@code streams.main.consumer.} or {@code consumer.} prefix) is kept.
 */
public final class MainConsumerDefaults {

    static final int HEARTBEAT_INTERVAL_MS = 500;

    private MainConsumerDefaults() {
    }

    /** Adds the heartbeat interval to {@code streamsProps} unless it is set for the main consumer or all consumers. */
    public static void applyTo(Properties streamsProps) {
        ClientDefaults.putUnlessSet(streamsProps, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, HEARTBEAT_INTERVAL_MS,
            StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.CONSUMER_PREFIX);
    }
}
