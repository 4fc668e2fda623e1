package io.statesync.topology;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import io.statesync.avro.KindPolicy;
import io.statesync.reconciler.OrphanPolicy;
import io.statesync.reconciler.ReconcilePolicy;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a kind's {@link ReconcilePolicy} from the global kinds store. Decoded policies are cached
 * against their bytes, so a hot kind costs one store read and an array comparison per event.
 */
public final class PolicyCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(PolicyCatalog.class);

    private record Cached(byte[] bytes, ReconcilePolicy policy) {
    }

    private final ReadOnlyKeyValueStore<String, byte[]> store;
    private final Deserializer<KindPolicy> deserializer;
    private final String topic;
    private final Map<String, Cached> cache = new HashMap<>();

    public PolicyCatalog(ReadOnlyKeyValueStore<String, byte[]> store, Deserializer<KindPolicy> deserializer, String topic) {
        this.store = store;
        this.deserializer = deserializer;
        this.topic = topic;
    }

    public ReconcilePolicy forKind(String kind) {
        byte[] bytes = store.get(kind);
        if (bytes == null) {
            return ReconcilePolicy.defaults();
        }
        Cached cached = cache.get(kind);
        if (cached != null && Arrays.equals(cached.bytes, bytes)) {
            return cached.policy;
        }
        ReconcilePolicy policy;
        try {
            policy = toReconcilePolicy(deserializer.deserialize(topic, bytes));
        } catch (RuntimeException e) {
            LOG.warn("Kind policy for {} does not decode, using defaults: {}", kind, e.toString());
            policy = ReconcilePolicy.defaults();
        }
        cache.put(kind, new Cached(bytes, policy));
        return policy;
    }

    /** Null durations mean the documented default; an invalid value throws, so the updater can reject it. */
    public static ReconcilePolicy toReconcilePolicy(KindPolicy k) {
        ReconcilePolicy.Builder b = ReconcilePolicy.builder()
            .ignoredPaths(k.getIgnoredFields()).listMergeKeys(k.getListMergeKeys())
            .orphanPolicy(OrphanPolicy.valueOf(k.getOrphanPolicy().name()))
            .strict(k.getStrict()).strictTyping(k.getStrictTyping()).finalizers(k.getFinalizers());
        if (k.getResyncPeriodMs() != null) b.resyncPeriod(Duration.ofMillis(k.getResyncPeriodMs()));
        if (k.getCorrectionDeadlineMs() != null) b.correctionDeadline(Duration.ofMillis(k.getCorrectionDeadlineMs()));
        if (k.getBackoffBaseMs() != null) b.backoffBase(Duration.ofMillis(k.getBackoffBaseMs()));
        if (k.getBackoffCapMs() != null) b.backoffCap(Duration.ofMillis(k.getBackoffCapMs()));
        if (k.getMaxAttempts() != null) b.maxAttempts(k.getMaxAttempts());
        if (k.getStalenessBoundMs() != null) b.stalenessBound(Duration.ofMillis(k.getStalenessBoundMs()));
        return b.build();
    }
}
