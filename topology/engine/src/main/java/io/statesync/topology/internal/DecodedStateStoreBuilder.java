package io.statesync.topology.internal;

import java.util.Map;

import io.statesync.avro.store.ReconcileState;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/** Builds a {@link DecodedStateStore} around the store Streams builds (metered, cached, logged, RocksDB). */
public final class DecodedStateStoreBuilder implements StoreBuilder<DecodedStateStore> {

    private final StoreBuilder<KeyValueStore<String, ReconcileState>> inner;
    private final int maxEntries;
    private final long maxBytes;

    public DecodedStateStoreBuilder(StoreBuilder<KeyValueStore<String, ReconcileState>> inner, int maxEntries, long maxBytes) {
        this.inner = inner;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    @Override
    public DecodedStateStore build() {
        return new DecodedStateStore(inner.build(), maxEntries, maxBytes);
    }

    @Override
    public StoreBuilder<DecodedStateStore> withCachingEnabled() {
        inner.withCachingEnabled();
        return this;
    }

    @Override
    public StoreBuilder<DecodedStateStore> withCachingDisabled() {
        inner.withCachingDisabled();
        return this;
    }

    @Override
    public StoreBuilder<DecodedStateStore> withLoggingEnabled(Map<String, String> config) {
        inner.withLoggingEnabled(config);
        return this;
    }

    @Override
    public StoreBuilder<DecodedStateStore> withLoggingDisabled() {
        inner.withLoggingDisabled();
        return this;
    }

    @Override
    public Map<String, String> logConfig() {
        return inner.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
        return inner.loggingEnabled();
    }

    @Override
    public String name() {
        return inner.name();
    }
}
