package io.statesync.reliability;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLongArray;

import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.StatesyncTopology;
import org.apache.kafka.common.utils.Utils;

/**
 * A read_committed tail of the state store's changelog, the topic a standby or restoring copy replays: for each key,
 * the offset at which each of its resourceVersions first appeared, and for each partition how far the tail has read.
 * With them, a stale answer can be judged from outside: a copy that answers version V has not applied the record that
 * follows V for that key, so its offset lag is at least the changelog's end minus that record's offset.
 */
final class StateChangelog implements AutoCloseable {

    private final Map<String, ConcurrentSkipListMap<Long, Long>> offsetsByVersion = new ConcurrentHashMap<>();
    private final AtomicLongArray end;
    private final int partitions;
    private final TopicTail<ReconcileState> tail;

    /** Start it once the app has created its internal topics (once an instance has been ready). */
    StateChangelog(ScenarioTarget target) {
        partitions = target.config().getInt(ServerConfig.TOPIC_PARTITIONS);
        end = new AtomicLongArray(partitions);
        tail = new TopicTail<>(target.clientProps(), topic(target.config()), target.serdes().reconcileState().deserializer(),
            r -> onRecord(r.key(), r.value(), r.partition(), r.offset()));
    }

    static String topic(AppConfig config) {
        return config.getString(AppConfig.APPLICATION_ID) + "-" + StatesyncTopology.STATE_STORE + "-changelog";
    }

    private void onRecord(String key, ReconcileState state, int partition, long offset) {
        Resource r = state == null ? null : state.getResource();
        if (key != null && r != null && r.getMetadata().getResourceVersion() != null) {
            offsetsByVersion.computeIfAbsent(key, k -> new ConcurrentSkipListMap<>())
                .putIfAbsent(Long.parseLong(r.getMetadata().getResourceVersion()), offset);
        }
        end.accumulateAndGet(partition, offset + 1, Math::max);
    }

    /** The partition of a key, as statesync's producers (the default partitioner on a String key) place it. */
    int partition(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** The offset after the last record read so far of one partition (a lower bound of its end offset). */
    long readEnd(int partition) {
        return end.get(partition);
    }

    /** The offset of the first record of {@code key} at a version above {@code version}, or -1 if none was read. */
    long offsetAfter(String key, long version) {
        ConcurrentSkipListMap<Long, Long> versions = offsetsByVersion.get(key);
        Map.Entry<Long, Long> next = versions == null ? null : versions.higherEntry(version);
        return next == null ? -1 : next.getValue();
    }

    /** How far the tail has read each partition, e.g. {@code [1200, 1310, 1105]}. */
    String readEnds() {
        return end.toString();
    }

    /** Records that did not decode (reported by the tail); must be 0. */
    long undecodable() {
        return tail.badRecords();
    }

    @Override
    public void close() throws InterruptedException {
        tail.close();
    }
}
