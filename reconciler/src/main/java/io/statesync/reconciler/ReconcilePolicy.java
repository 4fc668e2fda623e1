package io.statesync.reconciler;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The per-kind knobs of reconciliation. Paths are relative to the spec root, in {@link FieldPath} dotted form, with
 * {@code *} matching any map key or list item. See the module README for the defaults and why they were chosen.
 *
 * @param ignoredPaths     subtrees that are never diffed, patched or pruned
 * @param listMergeKeys    dotted path of a list of maps to the key field that identifies an item
 * @param orphanPolicy     what to do with an observed resource that has no desired counterpart
 * @param resyncPeriod     how often the caller re-checks a key without any event
 * @param correctionDeadline how long an issued correction may stay outstanding before it counts as failed
 * @param backoffBase      the delay before the first retry (before jitter)
 * @param backoffCap       the delay never exceeds this
 * @param maxAttempts      after this many failed attempts of one correction the resource is Stalled
 * @param stalenessBound   an observation older than this raises ObservedStale
 * @param strict           prune observed fields that statesync never set
 * @param strictTyping     compare 5 and 5.0 as different (type mismatch)
 * @param finalizers       finalizers statesync removes itself once the observed resource is gone
 * @param healthRules      the kind's health rules, compiled (first match wins; none: the Ready condition decides)
 * @param validationRules  the kind's validation rules on the spec, compiled (admission refuses a spec that breaks one)
 * @param definition       what the CustomResourceDefinition of the kind says, {@link KindDefinition#none()} without one
 */
public record ReconcilePolicy(
        List<String> ignoredPaths,
        Map<String, String> listMergeKeys,
        OrphanPolicy orphanPolicy,
        Duration resyncPeriod,
        Duration correctionDeadline,
        Duration backoffBase,
        Duration backoffCap,
        int maxAttempts,
        Duration stalenessBound,
        boolean strict,
        boolean strictTyping,
        List<String> finalizers,
        HealthRules healthRules,
        ValidationRules validationRules,
        KindDefinition definition) {

    public static final Duration DEFAULT_RESYNC_PERIOD = Duration.ofMinutes(5);
    public static final Duration DEFAULT_CORRECTION_DEADLINE = Duration.ofSeconds(30);
    /** client-go's per-item exponential limiter starts at 5 ms ... */
    public static final Duration DEFAULT_BACKOFF_BASE = Duration.ofMillis(5);
    /** ... and caps at 1000 s. */
    public static final Duration DEFAULT_BACKOFF_CAP = Duration.ofSeconds(1000);
    public static final int DEFAULT_MAX_ATTEMPTS = 10;
    public static final Duration DEFAULT_STALENESS_BOUND = Duration.ofMinutes(10);
    public static final OrphanPolicy DEFAULT_ORPHAN_POLICY = OrphanPolicy.REPORT;

    private static final ReconcilePolicy DEFAULTS = builder().build();

    public ReconcilePolicy {
        ignoredPaths = List.copyOf(ignoredPaths);
        listMergeKeys = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(listMergeKeys));
        Objects.requireNonNull(orphanPolicy, "orphanPolicy");
        requirePositive(resyncPeriod, "resyncPeriod");
        requirePositive(correctionDeadline, "correctionDeadline");
        requirePositive(backoffBase, "backoffBase");
        requirePositive(backoffCap, "backoffCap");
        requirePositive(stalenessBound, "stalenessBound");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        finalizers = List.copyOf(finalizers);
        Objects.requireNonNull(healthRules, "healthRules");
        Objects.requireNonNull(validationRules, "validationRules");
        Objects.requireNonNull(definition, "definition");
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }

    public static ReconcilePolicy defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().ignoredPaths(ignoredPaths).listMergeKeys(listMergeKeys).orphanPolicy(orphanPolicy)
                .resyncPeriod(resyncPeriod).correctionDeadline(correctionDeadline).backoffBase(backoffBase)
                .backoffCap(backoffCap).maxAttempts(maxAttempts).stalenessBound(stalenessBound).strict(strict)
                .strictTyping(strictTyping).finalizers(finalizers).healthRules(healthRules)
                .validationRules(validationRules).definition(definition);
    }

    /** Mutable builder starting from the defaults. */
    public static final class Builder {
        private List<String> ignoredPaths = List.of();
        private Map<String, String> listMergeKeys = Map.of();
        private OrphanPolicy orphanPolicy = DEFAULT_ORPHAN_POLICY;
        private Duration resyncPeriod = DEFAULT_RESYNC_PERIOD;
        private Duration correctionDeadline = DEFAULT_CORRECTION_DEADLINE;
        private Duration backoffBase = DEFAULT_BACKOFF_BASE;
        private Duration backoffCap = DEFAULT_BACKOFF_CAP;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private Duration stalenessBound = DEFAULT_STALENESS_BOUND;
        private boolean strict;
        private boolean strictTyping;
        private List<String> finalizers = List.of();
        private HealthRules healthRules = HealthRules.none();
        private ValidationRules validationRules = ValidationRules.none();
        private KindDefinition definition = KindDefinition.none();

        private Builder() {
        }

        public Builder ignoredPaths(List<String> v) { this.ignoredPaths = v; return this; }
        public Builder ignoredPaths(String... v) { return ignoredPaths(List.of(v)); }
        public Builder listMergeKeys(Map<String, String> v) { this.listMergeKeys = v; return this; }
        public Builder listMergeKey(String listPath, String keyField) {
            Map<String, String> next = new LinkedHashMap<>(listMergeKeys);
            next.put(listPath, keyField);
            this.listMergeKeys = next;
            return this;
        }
        public Builder orphanPolicy(OrphanPolicy v) { this.orphanPolicy = v; return this; }
        public Builder resyncPeriod(Duration v) { this.resyncPeriod = v; return this; }
        public Builder correctionDeadline(Duration v) { this.correctionDeadline = v; return this; }
        public Builder backoffBase(Duration v) { this.backoffBase = v; return this; }
        public Builder backoffCap(Duration v) { this.backoffCap = v; return this; }
        public Builder maxAttempts(int v) { this.maxAttempts = v; return this; }
        public Builder stalenessBound(Duration v) { this.stalenessBound = v; return this; }
        public Builder strict(boolean v) { this.strict = v; return this; }
        public Builder strictTyping(boolean v) { this.strictTyping = v; return this; }
        public Builder finalizers(List<String> v) { this.finalizers = v; return this; }
        public Builder healthRules(HealthRules v) { this.healthRules = v; return this; }
        /** Compiles {@code v}: throws {@link InvalidRuleException} when a rule does not compile. */
        public Builder healthRules(List<HealthRule> v) { return healthRules(HealthRules.compile(v)); }
        public Builder validationRules(ValidationRules v) { this.validationRules = v; return this; }
        /** Compiles {@code v}: throws {@link InvalidRuleException} when a rule does not compile. */
        public Builder validationRules(List<ValidationRule> v) { return validationRules(ValidationRules.compile(v)); }

        public Builder definition(KindDefinition v) { this.definition = v; return this; }

        public ReconcilePolicy build() {
            return new ReconcilePolicy(ignoredPaths, listMergeKeys, orphanPolicy, resyncPeriod, correctionDeadline,
                    backoffBase, backoffCap, maxAttempts, stalenessBound, strict, strictTyping, finalizers, healthRules,
                    validationRules, definition);
        }
    }
}
