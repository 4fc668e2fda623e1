package io.statesync.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.KindPolicy;
import io.statesync.reconciler.KindDefinition;
import io.statesync.reconciler.schema.StructuralSchema;
import io.statesync.schemas.Values;
import io.statesync.reconciler.HealthRule;
import io.statesync.reconciler.HealthStatus;
import io.statesync.reconciler.InvalidRuleException;
import io.statesync.reconciler.OrphanPolicy;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.ValidationRule;
import io.statesync.serde.SerdeException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a kind's {@link ReconcilePolicy} from the global kinds store. Decoded policies are cached
 * against their bytes, so a hot kind costs one store read and an array comparison per event, and its CEL rules are
 * compiled once per policy version.
 *
 * <p>Bytes that do not decode (the registry is out, or the record is not a policy) are never cached as a policy: the
 * kind's policy is unknown until they decode, which is tried again at most once per {@link #RETRY_INTERVAL_MS} so
 * that an unreachable registry does not hold every event of the kind. While it is unknown, {@link #forAdmission}
 * refuses (a write must not be admitted without the kind's validation rules). {@link #forKind} throws the registry's
 * failure when the registry could not be reached, so that the task retries the reconcile once it answers, as it does
 * for any record that needs the registry; only for bytes that will never decode (the record is not a policy) does it
 * answer the last policy this catalog decoded for the kind, or the defaults, so that one bad record cannot stop the
 * kind's reconciles.
 */
public final class PolicyCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(PolicyCatalog.class);

    /** How long bytes that failed to decode are taken as unknown before they are decoded again. */
    public static final long RETRY_INTERVAL_MS = 1_000;

    /** The kind's policy is stored but does not decode now; the write may be retried. */
    public static final class PolicyUnavailableException extends RuntimeException {
        PolicyUnavailableException(String message) {
            super(message, null, false, false);
        }
    }

    /** The stored bytes of a kind: its policy's and its definition's, either null when absent. */
    private record Stored(byte[] policy, byte[] definition) {
        boolean same(Stored other) {
            return Arrays.equals(policy, other.policy) && Arrays.equals(definition, other.definition);
        }
    }

    private record Cached(Stored bytes, ReconcilePolicy policy) {
    }

    /** {@code outage} is the registry's failure when it could not be reached, null when the bytes are at fault. */
    private record Failed(Stored bytes, long retryAt, String reason, SerdeException outage) {
    }

    private final ReadOnlyKeyValueStore<String, byte[]> store;
    private final Deserializer<KindPolicy> deserializer;
    private final String topic;
    private static final com.fasterxml.jackson.databind.ObjectMapper DEFINITION_READER =
        new com.fasterxml.jackson.databind.ObjectMapper();
    private final StructuralSchema.Limits limits;
    private final Map<String, Cached> cache = new HashMap<>();
    private final Map<String, Failed> failed = new HashMap<>();

    public PolicyCatalog(ReadOnlyKeyValueStore<String, byte[]> store, Deserializer<KindPolicy> deserializer, String topic) {
        this(store, deserializer, topic, StructuralSchema.Limits.DEFAULTS);
    }

    /** The bounds of definitions' schemas and of the check of one write, from the {@code definitions.*} keys. */
    public static StructuralSchema.Limits definitionLimits(io.statesync.config.AppConfig config) {
        return new StructuralSchema.Limits(config.getInt(io.statesync.config.AppConfig.DEFINITIONS_SCHEMA_MAX_DEPTH),
            config.getInt(io.statesync.config.AppConfig.DEFINITIONS_SCHEMA_MAX_NODES),
            config.getInt(io.statesync.config.AppConfig.DEFINITIONS_MAX_RULE_EVALUATIONS),
            config.getLong(io.statesync.config.AppConfig.DEFINITIONS_MAX_PATTERN_STEPS));
    }

    /** @param limits the bounds of definitions' schemas and of the check of one write ({@code definitions.*} keys) */
    public PolicyCatalog(ReadOnlyKeyValueStore<String, byte[]> store, Deserializer<KindPolicy> deserializer, String topic,
                         StructuralSchema.Limits limits) {
        this.store = store;
        this.deserializer = deserializer;
        this.topic = topic;
        this.limits = limits;
    }

    /**
     * The kind's policy for a reconcile. While the registry cannot be reached, its failure is thrown (a
     * {@link SerdeException} that is not bad data, which the processing handler retries): a reconcile under another
     * policy than the stored one would correct with the wrong rules. While the stored bytes are not a policy, the last
     * policy decoded for the kind, or the defaults (neither is cached in place of the stored bytes).
     */
    public ReconcilePolicy forKind(String kind) {
        try {
            return forAdmission(kind);
        } catch (PolicyUnavailableException e) {
            Failed f = failed.get(kind);
            if (f != null && f.outage() != null) {
                throw f.outage();
            }
            Cached last = cache.get(kind);
            return last == null ? ReconcilePolicy.defaults() : last.policy;
        }
    }

    /**
     * The kind's policy for admitting a write; throws {@link PolicyUnavailableException} while its stored bytes do not
     * decode, so that no write is admitted without the kind's rules.
     */
    public ReconcilePolicy forAdmission(String kind) {
        Stored bytes = new Stored(store.get(kind), store.get(ApiOnlyKinds.definitionKey(kind)));
        if (bytes.policy() == null && bytes.definition() == null) {
            return ReconcilePolicy.defaults();
        }
        Cached cached = cache.get(kind);
        if (cached != null && cached.bytes.same(bytes)) {
            return cached.policy;
        }
        Failed f = failed.get(kind);
        if (f != null && f.bytes.same(bytes) && System.currentTimeMillis() < f.retryAt) {
            throw unavailable(kind, f.reason);
        }
        try {
            ReconcilePolicy policy = decode(bytes);
            cache.put(kind, new Cached(bytes, policy));
            failed.remove(kind);
            return policy;
        } catch (RuntimeException e) {
            if (f == null || !f.bytes.same(bytes)) {
                LOG.warn("Kind policy for {} does not decode; writes of the kind are refused until it does: {}", kind, e.toString());
            }
            failed.put(kind, new Failed(bytes, System.currentTimeMillis() + RETRY_INTERVAL_MS, e.getMessage(),
                SerdeException.registryFailureIn(e)));
            throw unavailable(kind, e.getMessage());
        }
    }

    /** The kind's policy (the defaults without one) with the definition a CustomResourceDefinition gives it. */
    private ReconcilePolicy decode(Stored bytes) {
        ReconcilePolicy policy = bytes.policy() == null ? ReconcilePolicy.defaults()
            : toUsablePolicy(deserializer.deserialize(topic, bytes.policy()));
        if (bytes.definition() == null) {
            return policy;
        }
        return policy.toBuilder().definition(definition(deserializer.deserialize(topic, bytes.definition()), limits)).build();
    }

    /** The definition a definition record carries; none for a record without one. */
    @SuppressWarnings("unchecked")
    static KindDefinition definition(KindPolicy record, StructuralSchema.Limits limits) {
        if (record.getDefinition() == null) {
            return KindDefinition.none();
        }
        try {
            Object tree = Values.toJava(Values.fromJson(DEFINITION_READER.readTree(record.getDefinition())));
            return tree instanceof Map<?, ?> spec ? new KindDefinition((Map<String, Object>) spec, limits) : KindDefinition.none();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("the definition of " + record.getKind() + " is not JSON: " + e.getMessage(), e);
        }
    }

    private static PolicyUnavailableException unavailable(String kind, String reason) {
        return new PolicyUnavailableException("the policy of kind " + kind + " is stored but does not decode ("
            + reason + "); retry, or replace it with PUT /api/v1/kinds/" + kind);
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
