package io.statesync.topology.internal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.statesync.avro.store.ReconcileState;
import io.statesync.topology.store.ReconcileStateStore;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A write-back cache of decoded {@link ReconcileState}s over the Streams-built {@code statesync-state} store, plus the
 * task's set of keys whose reconcile is pending (coalesced to the next batch).
 *
 * <p>Consecutive events of a key reuse the decoded object and write it back once per commit instead of encoding it on
 * every event. The write-back runs in {@link #flushCache()}, which Streams calls in {@code StreamTask.prepareCommit}
 * before the record collector is flushed and the transaction committed (the store's own {@code flush}/{@code commit}
 * comes only after the commit, too late for exactly-once), and on suspend and clean close. A dirty close calls
 * {@link #clearCache()}: the decoded entries are dropped with the transaction they belonged to.
 *
 * <p>Pending keys survive a commit that happens before their batch runs: the write-back also stores a marker entry
 * {@code PENDING_PREFIX + key} in the same store (so in the same changelog and transaction); the first batch after a
 * restart reads the markers back. Markers sort before every resource key and are skipped by {@link #slice}.
 *
 * <p>The {@link KeyValueStore} methods are for interactive queries and anything else outside the stream thread: they
 * go to the inner store, which holds the state as of the last commit, and never hand out the mutable decoded objects.
 */
public final class DecodedStateStore extends WrappedStateStore<KeyValueStore<String, ReconcileState>, String, ReconcileState>
    implements KeyValueStore<String, ReconcileState>, ReconcileStateStore {

    private static final String PENDING_PREFIX = "\u0000pending/";
    private static final String PENDING_END = "\u0000pending0";

    private final int maxEntries;
    private final Map<String, ReconcileState> decoded;
    /** The changed states since the last write-back, so that a commit touches only those, not the whole cache. */
    private final Map<String, ReconcileState> dirty = new LinkedHashMap<>();
    private final Set<String> pending = new LinkedHashSet<>();
    private final Set<String> persistedMarkers = new LinkedHashSet<>();
    private boolean markersLoaded;
    /** Here because it is per task too, shared by both processors, and forgotten with the decoded states. */
    private final RevisionCounter revisions = new RevisionCounter();

    DecodedStateStore(KeyValueStore<String, ReconcileState> inner, int maxEntries) {
        super(inner);
        this.maxEntries = maxEntries;
        this.decoded = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ReconcileState> eldest) {
                if (size() <= DecodedStateStore.this.maxEntries) {
                    return false;
                }
                if (dirty.remove(eldest.getKey()) != null) {
                    wrapped().put(eldest.getKey(), eldest.getValue());
                }
                return true;
            }
        };
    }

    /** The inner store's key of the committed "reconcile pending" marker of {@code key}. */
    public static String pendingMarker(String key) {
        return PENDING_PREFIX + key;
    }

    // ---- the stream thread's view: decoded, write-back ----

    /** The store behind the read-write decorator that a processor context hands out. */
    public static DecodedStateStore of(StateStore store) {
        StateStore s = store;
        while (!(s instanceof DecodedStateStore) && s instanceof WrappedStateStore<?, ?, ?> w) {
            s = w.wrapped();
        }
        if (s instanceof DecodedStateStore d) {
            return d;
        }
        throw new IllegalStateException(store.name() + " is not a DecodedStateStore: " + store.getClass().getName());
    }

    @Override
    public ReconcileState read(String key) {
        ReconcileState cached = decoded.get(key);
        if (cached != null) {
            return cached;
        }
        ReconcileState st = wrapped().get(key);
        if (st != null) {
            decoded.put(key, st);
        }
        return st;
    }

    /**
     * The decoded instance the processors hold for {@code key}, or null when none is cached; for tests that look at
     * what the stream thread keeps, which {@link #get} (a fresh decoding of the last commit) cannot show.
     */
    public ReconcileState cached(String key) {
        return decoded.get(key);
    }

    @Override
    public void write(String key, ReconcileState st) {
        // Into dirty first: putting into the cache may evict, and an evicted dirty entry is written through.
        dirty.put(key, st);
        decoded.put(key, st);
    }

    void remove(String key) {
        forget(key);
        wrapped().delete(key);
    }

    private void forget(String key) {
        decoded.remove(key);
        dirty.remove(key);
    }

    void markPending(String key) {
        pending.add(key);
    }

    void unmarkPending(String key) {
        pending.remove(key);
    }

    /** Keys marked pending in this run (markers committed before a restart are counted once drained). */
    int pendingCount() {
        return pending.size();
    }

    /** Takes the pending keys (after a restart, first those whose markers were committed). */
    List<String> drainPending() {
        if (!markersLoaded) {
            markersLoaded = true;
            try (KeyValueIterator<String, ReconcileState> it = wrapped().range(PENDING_PREFIX, PENDING_END)) {
                while (it.hasNext()) {
                    String marker = it.next().key;
                    persistedMarkers.add(marker.substring(PENDING_PREFIX.length()));
                    pending.add(marker.substring(PENDING_PREFIX.length()));
                }
            }
        }
        List<String> keys = new ArrayList<>(pending);
        pending.clear();
        return keys;
    }

    /** Resource keys after {@code fromExclusive}, each with its current (decoded, possibly unflushed) state. */
    List<KeyValue<String, ReconcileState>> slice(String fromExclusive, int limit) {
        List<KeyValue<String, ReconcileState>> out = new ArrayList<>();
        String from = fromExclusive == null ? PENDING_END : fromExclusive;
        try (KeyValueIterator<String, ReconcileState> it = wrapped().range(from, null)) {
            while (it.hasNext() && out.size() < limit) {
                KeyValue<String, ReconcileState> kv = it.next();
                if (kv.key.equals(fromExclusive)) {
                    continue;
                }
                ReconcileState cached = decoded.get(kv.key);
                out.add(cached == null ? kv : KeyValue.pair(kv.key, cached));
            }
        }
        return out;
    }

    // ---- lifecycle ----

    @Override
    public void flushCache() {
        writeBack();
        super.flushCache();
    }

    private void writeBack() {
        for (Iterator<String> it = persistedMarkers.iterator(); it.hasNext(); ) {
            String key = it.next();
            if (!pending.contains(key)) {
                wrapped().delete(pendingMarker(key));
                it.remove();
            }
        }
        for (String key : pending) {
            if (persistedMarkers.add(key)) {
                wrapped().put(pendingMarker(key), ReconcileState.newBuilder().build());
            }
        }
        dirty.forEach((key, st) -> wrapped().put(key, st));
        dirty.clear();
    }

    @Override
    public void clearCache() {
        forget();
        super.clearCache();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        forget();
        super.init(context, root);
    }

    @Override
    public void close() {
        forget();
        super.close();
    }

    private void forget() {
        revisions.forget();
        decoded.clear();
        dirty.clear();
        pending.clear();
        persistedMarkers.clear();
        markersLoaded = false;
    }

    /** The task's resourceVersion counter (the revisions store is the processors' to pass in). */
    RevisionCounter revisionCounter() {
        return revisions;
    }

    // ---- KeyValueStore, for interactive queries: the inner store, as of the last commit ----

    @Override
    public ReconcileState get(String key) {
        return wrapped().get(key);
    }

    @Override
    public KeyValueIterator<String, ReconcileState> range(String from, String to) {
        return wrapped().range(from, to);
    }

    @Override
    public KeyValueIterator<String, ReconcileState> all() {
        return wrapped().range(PENDING_END, null);
    }

    @Override
    public long approximateNumEntries() {
        return wrapped().approximateNumEntries();
    }

    @Override
    public void put(String key, ReconcileState value) {
        forget(key);
        wrapped().put(key, value);
    }

    @Override
    public ReconcileState putIfAbsent(String key, ReconcileState value) {
        forget(key);
        return wrapped().putIfAbsent(key, value);
    }

    @Override
    public void putAll(List<KeyValue<String, ReconcileState>> entries) {
        entries.forEach(kv -> forget(kv.key));
        wrapped().putAll(entries);
    }

    @Override
    public ReconcileState delete(String key) {
        forget(key);
        return wrapped().delete(key);
    }
}
