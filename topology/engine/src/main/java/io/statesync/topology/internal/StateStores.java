package io.statesync.topology.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.avro.store.ReconcileState;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import static io.statesync.topology.TopologyNames.REVISION_STORE;
import static io.statesync.topology.TopologyNames.STATE_STORE;
import static io.statesync.topology.TopologyNames.TIMER_STORE;

/**
 * The task-local stores: the per-key {@link ReconcileState}, a timer index ordered by due time, and the
 * per-partition revision counter that makes resourceVersion monotonic per key.
 */
final class StateStores {

    private static final byte[] EMPTY = new byte[0];
    private static final int DUE_DIGITS = 15;

    private final DecodedStateStore state;
    private final KeyValueStore<String, byte[]> timers;
    private final KeyValueStore<String, Long> revisions;

    StateStores(ProcessorContext<?, ?> context) {
        this.state = DecodedStateStore.of(context.getStateStore(STATE_STORE));
        this.timers = context.getStateStore(TIMER_STORE);
        this.revisions = context.getStateStore(REVISION_STORE);
    }

    /** The resource recount's view of the state store: its slices, after the changed states are written through. */
    ResourceCounter.Source countingSource() {
        return new ResourceCounter.Source() {
            @Override
            public List<KeyValue<String, String>> slice(String fromExclusive, int limit) {
                List<KeyValue<String, String>> out = new ArrayList<>();
                for (KeyValue<String, ReconcileState> kv : state.slice(fromExclusive, limit)) {
                    out.add(KeyValue.pair(kv.key, ReconcileStep.series(kv.value.getResource())));
                }
                return out;
            }

            @Override
            public void writeThrough() {
                state.writeThrough();
            }
        };
    }

    /** The key's decoded state; a caller that changes it must {@link #put} it. */
    ReconcileState get(String key) {
        return state.read(key);
    }

    void put(String key, ReconcileState value) {
        state.write(key, value);
    }

    /** Defers the key's reconcile to the next batch ({@link #drainPending}). */
    void markPending(String key) {
        state.markPending(key);
    }

    /** The key was just reconciled: a batch need not do it again. */
    void reconciled(String key) {
        state.unmarkPending(key);
    }

    List<String> drainPending() {
        return state.drainPending();
    }

    void delete(String key, ReconcileState old) {
        if (old != null) {
            unschedule(key, old.getNextCheckAt());
        }
        state.unmarkPending(key);
        state.remove(key);
    }

    /** Next resourceVersion of this task; a key always lives on one partition, so this is monotonic per key. */
    String nextResourceVersion() {
        return Long.toString(state.revisionCounter().next(revisions));
    }

    /** Moves the key's timer from {@code oldDue} to {@code newDue}; 0 means no timer. */
    void reschedule(String key, long oldDue, long newDue) {
        if (oldDue == newDue) {
            return;
        }
        unschedule(key, oldDue);
        if (newDue > 0) {
            timers.put(timerKey(newDue, key), EMPTY);
        }
    }

    private void unschedule(String key, long due) {
        if (due > 0) {
            timers.delete(timerKey(due, key));
        }
    }

    int pendingCount() {
        return state.pendingCount();
    }

    /** How many timers are due at or before {@code now}, counting at most {@code cap} so that a backlog stays cheap. */
    int dueCount(long now, int cap) {
        int n = 0;
        try (KeyValueIterator<String, byte[]> it = timers.range(timerKey(0, ""), timerKey(now, "\uffff"))) {
            while (it.hasNext() && n < cap) {
                it.next();
                n++;
            }
        }
        return n;
    }

    /** (due, key) of the timers due at or before {@code now}, oldest first, at most {@code limit}. */
    List<Map.Entry<Long, String>> due(long now, int limit) {
        List<Map.Entry<Long, String>> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = timers.range(timerKey(0, ""), timerKey(now, "\uffff"))) {
            while (it.hasNext() && out.size() < limit) {
                String k = it.next().key;
                out.add(Map.entry(Long.parseLong(k.substring(0, DUE_DIGITS)), k.substring(DUE_DIGITS + 1)));
            }
        }
        return out;
    }

    /** A slice of the state store after {@code fromExclusive}, with the states already decoded, for the resync sweep. */
    List<KeyValue<String, ReconcileState>> slice(String fromExclusive, int limit) {
        return state.slice(fromExclusive, limit);
    }

    static String timerKey(long due, String key) {
        String digits = Long.toString(due);
        return "0".repeat(Math.max(0, DUE_DIGITS - digits.length())) + digits + "|" + key;
    }
}
