package io.statesync.topology.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.serde.PreEncodedRecords;
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
    private final long maxBytes;
    /** Least recently used first; weighed by {@link Cached#bytes}, summed in {@link #decodedBytes}. */
    private final LinkedHashMap<String, Cached> decoded = new LinkedHashMap<>(16, 0.75f, true);
    private long decodedBytes;
    /**
     * The changed states since the last write-back, so that a commit touches only those, not the whole cache; each is
     * also in {@link #decoded} (eviction writes a changed state through and drops it here).
     */
    private final Map<String, Cached> dirty = new LinkedHashMap<>();
    private final Set<String> pending = new LinkedHashSet<>();
    /** The Resources published since the last commit, by key: only changed keys publish, so it is within dirty's keys. */
    private final Map<String, PublishedResource> published = new HashMap<>();
    private final Set<String> persistedMarkers = new LinkedHashSet<>();
    private boolean markersLoaded;
    /** Here because it is per task too, shared by both processors, and forgotten with the decoded states. */
    private final RevisionCounter revisions = new RevisionCounter();

    /**
     * A decoded state and the length of its encoding when it was last read or written back: what its weight in the
     * byte budget is, since the heap it takes decoded grows with it. A state new since the last commit weighs nothing
     * until the commit encodes it.
     */
    private static final class Cached {
        final ReconcileState state;
        int bytes;

        Cached(ReconcileState state, int bytes) {
            this.state = state;
            this.bytes = bytes;
        }
    }

    DecodedStateStore(KeyValueStore<String, ReconcileState> inner, int maxEntries, long maxBytes) {
        super(inner);
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
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
        Cached cached = decoded.get(key);
        if (cached != null) {
            return cached.state;
        }
        ReconcileState st = wrapped().get(key);
        if (st != null) {
            cache(key, st, ReconcileStateSerde.lastLength());
            evictPastBudget();
        }
        return st;
    }

    /**
     * The decoded instance the processors hold for {@code key}, or null when none is cached; for tests that look at
     * what the stream thread keeps, which {@link #get} (a fresh decoding of the last commit) cannot show.
     */
    public ReconcileState cached(String key) {
        // A walk, not get(): looking must not make the state the most recently used.
        for (Map.Entry<String, Cached> e : decoded.entrySet()) {
            if (e.getKey().equals(key)) {
                return e.getValue().state;
            }
        }
        return null;
    }

    /** The bytes the cached states weigh (see {@link Cached}). */
    long cachedBytes() {
        return decodedBytes;
    }

    @Override
    public void write(String key, ReconcileState st) {
        Cached cached = decoded.get(key);
        if (cached == null || cached.state != st) {
            cached = cache(key, st, cached == null ? 0 : cached.bytes);
        }
        // Into dirty before the eviction: an evicted dirty entry is written through, this one included.
        dirty.put(key, cached);
        evictPastBudget();
    }

    /**
     * Notes the wire bytes {@code resource} of {@code key} was just published with: if the state still holds it as it
     * was when the commit writes the state, the commit copies those bytes instead of encoding it again.
     */
    public void published(String key, Resource resource, byte[] wireBytes) {
        published.put(key, new PublishedResource(resource, wireBytes));
    }

    /** Writes {@code st} to the inner store, with the bytes its Resource was published with when they still hold. */
    private void putInner(String key, ReconcileState st) {
        PublishedResource p = published.remove(key);
        if (p == null || st.getResource() == null || !p.describes(st.getResource())) {
            wrapped().put(key, st);
            return;
        }
        PreEncodedRecords.lend(st.getResource(), p.wireBytes());
        try {
            wrapped().put(key, st);
        } finally {
            PreEncodedRecords.clear();
        }
    }

    private Cached cache(String key, ReconcileState st, int bytes) {
        Cached fresh = new Cached(st, bytes);
        Cached previous = decoded.put(key, fresh);
        decodedBytes += bytes - (previous == null ? 0 : previous.bytes);
        return fresh;
    }

    /** Drops the least recently used states while the cache is past either bound; a changed one is written through. */
    private void evictPastBudget() {
        if (decoded.size() <= maxEntries && decodedBytes <= maxBytes) {
            return;
        }
        Iterator<Map.Entry<String, Cached>> it = decoded.entrySet().iterator();
        while ((decoded.size() > maxEntries || decodedBytes > maxBytes) && it.hasNext()) {
            Map.Entry<String, Cached> eldest = it.next();
            it.remove();
            decodedBytes -= eldest.getValue().bytes;
            Cached changed = dirty.remove(eldest.getKey());
            if (changed != null) {
                putInner(eldest.getKey(), changed.state);
            }
        }
    }

    void remove(String key) {
        forget(key);
        wrapped().delete(key);
    }

    private void forget(String key) {
        published.remove(key);
        Cached cached = decoded.remove(key);
        if (cached != null) {
            decodedBytes -= cached.bytes;
        }
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
                Cached cached = decoded.get(kv.key);
                out.add(cached == null ? kv : KeyValue.pair(kv.key, cached.state));
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
        writeThrough();
    }

    /**
     * Writes the changed states to the inner store before the commit would, so that a scan of it sees them; within the
     * same transaction, so only the coalescing of later changes to them is lost.
     */
    void writeThrough() {
        dirty.forEach((key, cached) -> {
            putInner(key, cached.state);
            decodedBytes += ReconcileStateSerde.lastLength() - cached.bytes;
            cached.bytes = ReconcileStateSerde.lastLength();
        });
        dirty.clear();
        published.clear();
        evictPastBudget();
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
        decodedBytes = 0;
        dirty.clear();
        published.clear();
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
