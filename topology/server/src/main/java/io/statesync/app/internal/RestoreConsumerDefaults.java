package io.statesync.app.internal;

import java.util.Map;
import java.util.Properties;

import io.statesync.topology.ClientDefaults;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Larger fetches for the restore consumer, which replays whole changelogs (state, timers, revisions) into empty stores
 * after a lost or wiped {@code state.dir}: Kafka Streams' defaults (1,000 records per poll, 1 MiB per partition and
 * fetch) make a restore of millions of records thousands of poll round trips. Only the restore consumer changes; the
 * main consumer's polls stay small so that a commit is never far away.
 *
 * <p>A shorter long poll too: after a clean stop, each changelog's tail is only the commit marker of the last
 * transaction, and a fetch that finds nothing else to return waits the broker's full {@code fetch.max.wait.ms}
 * (500 ms by default) before the state updater sees the tasks restored, a large share of a restart on kept state.
 * Restoring a large changelog is unchanged, since its fetches find data at once; with standby tasks, an idle restore
 * consumer fetches up to 20 times a second instead of twice.
 *
 * <p>A value the operator set (with the {@code streams.restore.consumer.} or {@code consumer.} prefix) is kept.
 */
public final class RestoreConsumerDefaults {

    static final int MAX_POLL_RECORDS = 10_000;
    static final int MAX_PARTITION_FETCH_BYTES = 8 * 1024 * 1024;
    static final int FETCH_MAX_BYTES = 64 * 1024 * 1024;
    static final int FETCH_MAX_WAIT_MS = 50;

    private static final Map<String, Object> DEFAULTS = Map.of(
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS,
        ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, MAX_PARTITION_FETCH_BYTES,
        ConsumerConfig.FETCH_MAX_BYTES_CONFIG, FETCH_MAX_BYTES,
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);

    private RestoreConsumerDefaults() {
    }

    /** Adds each default to {@code streamsProps} unless the key is already set for the restore consumer or all consumers. */
    public static void applyTo(Properties streamsProps) {
        DEFAULTS.forEach((key, value) ->
            ClientDefaults.putUnlessSet(streamsProps, key, value, StreamsConfig.RESTORE_CONSUMER_PREFIX, StreamsConfig.CONSUMER_PREFIX));
    }
}
