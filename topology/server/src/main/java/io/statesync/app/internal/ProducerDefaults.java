package io.statesync.app.internal;

import java.util.Properties;

import io.statesync.topology.ClientDefaults;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * A shorter first retry for the stream threads' producers. Under exactly-once each thread's producer starts with
 * {@code InitProducerId}, which it can only send once it has found the transaction coordinator; the client queues
 * the request again behind that lookup and waits one {@code retry.backoff.ms} (100 ms by default) before sending it,
 * although the lookup is answered in a few milliseconds; that wait lies on the path to RUNNING.
 * The backoff still grows exponentially to {@code retry.backoff.max.ms} (1 s) when a broker keeps failing.
 * A value the operator set (with the {@code streams.producer.} prefix, or bare) is kept.
 */
public final class ProducerDefaults {

    static final int RETRY_BACKOFF_MS = 10;

    private ProducerDefaults() {
    }

    /** Adds the retry backoff to {@code streamsProps} unless it is set for the producers or for every client. */
    public static void applyTo(Properties streamsProps) {
        ClientDefaults.putUnlessSet(streamsProps, ProducerConfig.RETRY_BACKOFF_MS_CONFIG, RETRY_BACKOFF_MS,
            StreamsConfig.PRODUCER_PREFIX);
    }
}
