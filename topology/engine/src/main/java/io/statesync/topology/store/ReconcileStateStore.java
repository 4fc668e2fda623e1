package io.statesync.topology.store;

import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopologySerdes;
import io.statesync.topology.internal.DecodedStateStore;
import io.statesync.topology.internal.DecodedStateStoreBuilder;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * statesync's per-key state store as a processor sees it: decoded {@link ReconcileState}s that the stream thread
 * changes in place and that reach the store, and its changelog, once per commit. The implementation stays internal;
 * a topology that keeps its state the way statesync does (the benchmarks' contract floor) needs only these methods.
 */
public interface ReconcileStateStore {

    /** The decoded state of {@code key}, or null; the caller may change it in place and must then {@link #write} it. */
    ReconcileState read(String key);

    /** Keeps {@code st} as the key's state; it reaches the inner store and its changelog before the next commit. */
    void write(String key, ReconcileState st);

    /**
     * The persistent, logged store {@code name} of decoded states, encoded with {@link TopologySerdes#reconcileState}
     * and holding at most {@link AppConfig#STATE_CACHE_MAX_ENTRIES} decoded states and
     * {@link AppConfig#STATE_CACHE_MAX_BYTES} of their encodings. It has no Streams cache: its own
     * write-back cache already writes each changed key once per commit, and a byte-level cache behind it would only
     * copy every state once more.
     */
    static StoreBuilder<? extends StateStore> builder(String name, TopologySerdes serdes, AppConfig config) {
        return new DecodedStateStoreBuilder(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(),
            serdes.reconcileState()).withCachingDisabled(), config.getInt(AppConfig.STATE_CACHE_MAX_ENTRIES),
            config.getLong(AppConfig.STATE_CACHE_MAX_BYTES));
    }

    /** The store of {@link #builder} behind the read-write decorator that a processor context hands out. */
    static ReconcileStateStore of(StateStore store) {
        return DecodedStateStore.of(store);
    }

}
