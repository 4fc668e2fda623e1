package io.statesync.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.KindPolicy;
import io.statesync.reconciler.HealthRule;
import io.statesync.reconciler.HealthStatus;
import io.statesync.reconciler.InvalidRuleException;
import io.statesync.reconciler.OrphanPolicy;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.ValidationRule;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a kind's {@link ReconcilePolicy} from the global kinds store. Decoded policies are cached
 * against their bytes, so a hot kind costs one store read and an array comparison per event, and its CEL rules are
 * compiled once per policy version.
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
            policy = toUsablePolicy(deserializer.deserialize(topic, bytes));
        } catch (RuntimeException e) {
            LOG.warn("Kind policy for {} does not decode, using defaults: {}", kind, e.toString());
            policy = ReconcilePolicy.defaults();
        }
        cache.put(kind, new Cached(bytes, policy));
        return policy;
    }

    /**
     * The policy with its rules, or without them when one does not compile: REST refuses such a policy, but one written
     * straight to the topic must not stop reconciles. Called once per policy version (the catalog caches by bytes), so
     * the warning is logged once.
     */
    static ReconcilePolicy toUsablePolicy(KindPolicy k) {
        try {
            return toReconcilePolicy(k);
        } catch (InvalidRuleException e) {
            LOG.warn("Kind policy for {} has a rule that does not compile; its health and validation rules are ignored: {}",
                k.getKind(), e.getMessage());
            return withoutRules(k);
        }
    }

    /** Null durations mean the documented default; an invalid value or a rule that does not compile throws. */
    public static ReconcilePolicy toReconcilePolicy(KindPolicy k) {
        return builder(k).healthRules(healthRules(k)).validationRules(validationRules(k)).build();
    }

    /** The policy's other fields, checked, with no health or validation rules. */
    public static ReconcilePolicy withoutRules(KindPolicy k) {
        return builder(k).build();
    }

    public static List<HealthRule> healthRules(KindPolicy k) {
        List<HealthRule> out = new ArrayList<>(k.getHealthRules().size());
        for (io.statesync.avro.HealthRule r : k.getHealthRules()) {
            out.add(new HealthRule(HealthStatus.valueOf(r.getStatus().name()), r.getWhen(), r.getMessage()));
        }
        return out;
    }

    public static List<ValidationRule> validationRules(KindPolicy k) {
        List<ValidationRule> out = new ArrayList<>(k.getValidationRules().size());
        for (io.statesync.avro.ValidationRule r : k.getValidationRules()) {
            out.add(new ValidationRule(r.getRule(), r.getMessage(), r.getFieldPath()));
        }
        return out;
    }

    private static ReconcilePolicy.Builder builder(KindPolicy k) {
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
        return b;
    }
}
