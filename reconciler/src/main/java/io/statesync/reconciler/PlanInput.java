package io.statesync.reconciler;

import java.time.Instant;
import java.util.Objects;

/**
 * Everything the planner reads for one key, taken from the full stored state (never from the triggering event).
 *
 * @param key            {@code kind/namespace/name}
 * @param uid            the resource uid, or null when there is no desired resource
 * @param generation     the current desired generation (0 when there is no desired resource)
 * @param desiredSpec    the desired spec tree, or null when nothing is desired
 * @param deleting       deletionTimestamp is set or the desired state was deleted
 * @param observed       the observed side
 * @param lastApplied    the spec statesync last sent (the fields it owns), or null
 * @param lastCorrection the correction last issued and not yet known to be over, or null
 * @param now            the clock
 * @param policy         the kind's policy
 */
public record PlanInput(String key, String uid, long generation, Object desiredSpec, boolean deleting,
                        ObservedView observed, Object lastApplied, LastCorrection lastCorrection, Instant now,
                        ReconcilePolicy policy) {
    public PlanInput {
        Objects.requireNonNull(key, "key");
        desiredSpec = Trees.normalize(desiredSpec);
        Objects.requireNonNull(observed, "observed");
        lastApplied = Trees.normalize(lastApplied);
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(policy, "policy");
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().key(key).uid(uid).generation(generation).desiredSpec(desiredSpec).deleting(deleting)
                .observed(observed).lastApplied(lastApplied).lastCorrection(lastCorrection).now(now).policy(policy);
    }

    /** Defaults: observed unknown, policy {@link ReconcilePolicy#defaults()}; key and now are required. */
    public static final class Builder {
        private String key;
        private String uid;
        private long generation;
        private Object desiredSpec;
        private boolean deleting;
        private ObservedView observed = ObservedView.unknown();
        private Object lastApplied;
        private LastCorrection lastCorrection;
        private Instant now;
        private ReconcilePolicy policy = ReconcilePolicy.defaults();

        private Builder() {
        }

        public Builder key(String v) { this.key = v; return this; }
        public Builder uid(String v) { this.uid = v; return this; }
        public Builder generation(long v) { this.generation = v; return this; }
        public Builder desiredSpec(Object v) { this.desiredSpec = v; return this; }
        public Builder deleting(boolean v) { this.deleting = v; return this; }
        public Builder observed(ObservedView v) { this.observed = v; return this; }
        public Builder lastApplied(Object v) { this.lastApplied = v; return this; }
        public Builder lastCorrection(LastCorrection v) { this.lastCorrection = v; return this; }
        public Builder now(Instant v) { this.now = v; return this; }
        public Builder policy(ReconcilePolicy v) { this.policy = v; return this; }

        public PlanInput build() {
            return new PlanInput(key, uid, generation, desiredSpec, deleting, observed, lastApplied, lastCorrection,
                    now, policy);
        }
    }
}
