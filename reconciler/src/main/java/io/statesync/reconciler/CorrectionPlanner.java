package io.statesync.reconciler;

import io.statesync.reconciler.internal.Fingerprints;
import io.statesync.reconciler.internal.MergeEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Decides, from the full stored state of one key, whether to emit a correction, wait, or give up (docs/contract.md, 5.3 and 5.4).
 * <ol>
 *   <li>Deleting: DELETE/Deletion until the observed resource is absent, then InSync (the caller finalises).</li>
 *   <li>Nothing desired: an observed resource is an orphan; PRUNE plans DELETE/Orphaned, REPORT and IGNORE plan
 *       {@link Decision.Orphan}.</li>
 *   <li>Observed absent or never reported: CREATE/Missing.</li>
 *   <li>Otherwise the three-way merge's patch: empty is InSync; else UPDATE, SpecChanged while the agent is behind
 *       the generation, Drift when it is not.</li>
 * </ol>
 * Every correction then passes in-flight suppression: an identical one (same fingerprint) already issued is not
 * issued again before its deadline (or the agent's ack); after that it is retried with attempt+1 and reason Retry
 * once a backoff has passed, and after {@code maxAttempts} the key is Stalled. An agent's terminal failure of the
 * current generation stalls the key at once. The backoff jitter for a given
 * correction and attempt is fixed (seeded from the planner's salt, the key and the fingerprint), so planning again
 * before the retry is due yields the same instant instead of a new draw. Instances are immutable and thread-safe.
 */
public final class CorrectionPlanner {
    private final long salt;

    /** @param random the source of backoff jitter; a seeded one makes every decision reproducible */
    public CorrectionPlanner(RandomGenerator random) {
        this.salt = random.nextLong();
    }

    public Decision plan(PlanInput in) {
        return plan(in, merge(in));
    }

    /**
     * The three-way merge of {@code in} that both the plan and the status read ({@link StatusCalculator}): null when
     * neither needs it (deleting, nothing desired, or observed absent). A caller that computes both passes it to
     * {@link #plan(PlanInput, MergeResult)} and {@link StatusCalculator#compute(StatusView, PlanInput, Decision,
     * MergeResult)}, so that a reconcile merges once instead of twice.
     */
    public static MergeResult merge(PlanInput in) {
        if (in.deleting() || in.desiredSpec() == null || !in.observed().isPresent()) {
            return null;
        }
        return MergeEngine.merge(in.desiredSpec(), in.observed().state(), in.lastApplied(), in.policy());
    }

    /** As {@link #plan(PlanInput)}, with {@code merge} what {@link #merge(PlanInput)} returned for {@code in}. */
    public Decision plan(PlanInput in, MergeResult merge) {
        ObservedView observed = in.observed();
        if (in.deleting()) {
            return observed.presence() == ObservedView.Presence.ABSENT
                    ? new Decision.InSync()
                    : guard(in, Action.DELETE, Reason.Deletion, List.of());
        }
        if (in.desiredSpec() == null) {
            return planOrphan(in);
        }
        if (!observed.isPresent()) {
            MergeResult create = MergeEngine.merge(in.desiredSpec(), null, null, in.policy());
            return guard(in, Action.CREATE, Reason.Missing, create.patch());
        }
        if (merge.inSync()) {
            return new Decision.InSync();
        }
        Reason reason = observed.observedGeneration() < in.generation() ? Reason.SpecChanged : Reason.Drift;
        return guard(in, Action.UPDATE, reason, merge.patch());
    }

    private Decision planOrphan(PlanInput in) {
        if (!in.observed().isPresent()) {
            return new Decision.InSync();
        }
        OrphanPolicy policy = in.policy().orphanPolicy();
        return policy == OrphanPolicy.PRUNE
                ? guard(in, Action.DELETE, Reason.Orphaned, List.of())
                : new Decision.Orphan(policy);
    }

    /**
     * In-flight suppression, retry and stall for the correction the rules above want. A terminal failure of the
     * current generation stalls at once: only a new generation (a changed spec) makes correcting worth trying again.
     */
    private Decision guard(PlanInput in, Action action, Reason reason, List<PatchOp> patch) {
        if (in.observed().terminalFor(in.generation())) {
            return new Decision.Stalled(Decision.Stalled.TERMINAL_ERROR, in.observed().error().message());
        }
        String fingerprint = fingerprint(action, in.generation(), patch);
        LastCorrection last = in.lastCorrection();
        if (last == null || !last.patchFingerprint().equals(fingerprint)) {
            return emit(in, action, reason, patch, 1, fingerprint);
        }
        boolean acked = last.commandId().equals(in.observed().ackCommandId());
        if (!acked && in.now().isBefore(last.deadline())) {
            return new Decision.Wait(last.deadline(), describe(last) + " is outstanding until its deadline");
        }
        if (last.attempt() >= in.policy().maxAttempts()) {
            return new Decision.Stalled(describe(last) + " did not converge; gave up after "
                    + last.attempt() + " attempts (maxAttempts " + in.policy().maxAttempts() + ")");
        }
        Instant retryAt = failedAt(in, last, acked).plus(backoff(in, last));
        if (in.now().isBefore(retryAt)) {
            return new Decision.Wait(retryAt, describe(last) + " failed; attempt " + (last.attempt() + 1)
                    + " after backoff");
        }
        return emit(in, action, Reason.Retry, patch, last.attempt() + 1, fingerprint);
    }

    /** An ack without convergence means the actuator is done and failed: no need to sit out the deadline. */
    private static Instant failedAt(PlanInput in, LastCorrection last, boolean acked) {
        Instant ackedAt = in.observed().observedAt() == null ? in.now() : in.observed().observedAt();
        return acked && ackedAt.isBefore(last.deadline()) ? ackedAt : last.deadline();
    }

    private Duration backoff(PlanInput in, LastCorrection last) {
        long seed = salt;
        seed = seed * 31 + in.key().hashCode();
        seed = seed * 31 + last.patchFingerprint().hashCode();
        seed = seed * 31 + last.attempt();
        return Backoff.of(in.policy()).delay(last.attempt(), new SplittableRandom(seed));
    }

    private static Decision emit(PlanInput in, Action action, Reason reason, List<PatchOp> patch, int attempt,
                                 String fingerprint) {
        Instant deadline = in.now().plus(in.policy().correctionDeadline());
        return new Decision.Emit(new PlannedCorrection(action, reason, patch, attempt, in.now(), deadline,
                fingerprint));
    }

    private static String describe(LastCorrection last) {
        return "correction " + last.commandId() + " (" + last.action() + "/" + last.reason() + ", attempt "
                + last.attempt() + ")";
    }

    /** The fingerprint of a correction: action, generation and patch; stable across JVMs and restarts. */
    public static String fingerprint(Action action, long generation, List<PatchOp> patch) {
        return Fingerprints.of(action.name() + "|" + generation, patch);
    }
}
