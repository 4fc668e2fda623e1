package io.statesync.agent.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Which offsets of each partition are still being applied. A partition may be committed only up to its lowest
 * unfinished offset, so a crash never skips a correction that finished out of order behind a slow one.
 * Used by the poll thread only.
 */
public final class OffsetLedger {

    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();

    private static final class PartitionState {
        final TreeSet<Long> pending = new TreeSet<>();
        long next = -1;
        long committed = -1;

        long committable() {
            return pending.isEmpty() ? next : pending.first();
        }
    }

    public void started(TopicPartition tp, long offset) {
        PartitionState state = partitions.computeIfAbsent(tp, k -> new PartitionState());
        state.pending.add(offset);
        state.next = Math.max(state.next, offset + 1);
    }

    /** A finished offset of a partition no longer owned is ignored: its new owner will redeliver it. */
    public void finished(TopicPartition tp, long offset) {
        PartitionState state = partitions.get(tp);
        if (state != null) {
            state.pending.remove(offset);
        }
    }

    /** The offsets that moved since the last call, ready for {@code commitSync}. */
    public Map<TopicPartition, OffsetAndMetadata> takeCommittable() {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        partitions.forEach((tp, state) -> {
            long offset = state.committable();
            if (offset > state.committed) {
                out.put(tp, new OffsetAndMetadata(offset));
            }
        });
        return out;
    }

    /** Records that a commit succeeded, so it is not sent again. */
    public void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((tp, om) -> Optional.ofNullable(partitions.get(tp))
            .ifPresent(state -> state.committed = Math.max(state.committed, om.offset())));
    }

    public int pending() {
        return partitions.values().stream().mapToInt(s -> s.pending.size()).sum();
    }

    public int pending(TopicPartition tp) {
        PartitionState state = partitions.get(tp);
        return state == null ? 0 : state.pending.size();
    }

    public void forget(TopicPartition tp) {
        partitions.remove(tp);
    }
}
