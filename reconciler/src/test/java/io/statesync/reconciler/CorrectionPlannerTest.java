package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CorrectionPlannerTest {
    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final Object SPEC = map("image", "nginx:1.21", "replicas", 5);
    private static final Object OLD = map("image", "nginx:1.20", "replicas", 5);

    private final CorrectionPlanner planner = new CorrectionPlanner(new SplittableRandom(7));

    private static PlanInput.Builder input() {
        return PlanInput.builder().key("WebApp/default/shop").uid("u1").generation(2).desiredSpec(SPEC)
                .lastApplied(OLD).now(T0);
    }

    private static ObservedView observed(Object state, long generation) {
        return ObservedView.present(state, generation, T0.minusSeconds(1), null);
    }

    private static PlannedCorrection emitted(Decision d) {
        assertThat(d).isInstanceOf(Decision.Emit.class);
        return ((Decision.Emit) d).correction();
    }

    private static LastCorrection issued(String id, long generation, PlannedCorrection c) {
        return LastCorrection.of(id, generation, c);
    }

    @Test
    void shouldCreateWhenObservedWasNeverReported() {
        PlannedCorrection c = emitted(planner.plan(input().build()));

        assertThat(c.action()).isEqualTo(Action.CREATE);
        assertThat(c.reason()).isEqualTo(Reason.Missing);
        assertThat(Patches.apply(null, c.patch())).isEqualTo(SPEC);
        assertThat(c.attempt()).isEqualTo(1);
        assertThat(c.issuedAt()).isEqualTo(T0);
        assertThat(c.deadline()).isEqualTo(T0.plusSeconds(30));
    }

    @Test
    void shouldCreateWhenObservedIsAbsent() {
        PlannedCorrection c = emitted(planner.plan(input().observed(ObservedView.absent(T0)).build()));

        assertThat(c.action()).isEqualTo(Action.CREATE);
        assertThat(c.reason()).isEqualTo(Reason.Missing);
    }

    @Test
    void shouldUpdateWithSpecChangedWhileTheAgentIsBehindTheGeneration() {
        PlannedCorrection c = emitted(planner.plan(input().observed(observed(OLD, 1)).build()));

        assertThat(c.action()).isEqualTo(Action.UPDATE);
        assertThat(c.reason()).isEqualTo(Reason.SpecChanged);
        assertThat(c.patch()).containsExactly(PatchOp.set(FieldPath.of("image"), "nginx:1.21"));
    }

    @Test
    void shouldUpdateWithDriftAtTheSameGeneration() {
        Object drifted = map("image", "nginx:1.21", "replicas", 3);

        PlannedCorrection c = emitted(planner.plan(input().lastApplied(SPEC).observed(observed(drifted, 2)).build()));

        assertThat(c.reason()).isEqualTo(Reason.Drift);
        assertThat(c.patch()).containsExactly(PatchOp.set(FieldPath.of("replicas"), 5));
    }

    @Test
    void shouldBeInSyncWhenObservedMatches() {
        assertThat(planner.plan(input().observed(observed(SPEC, 2)).build())).isEqualTo(new Decision.InSync());
    }

    @Test
    void shouldDeleteWhileDeletingUntilObservedIsAbsent() {
        PlannedCorrection c = emitted(planner.plan(input().deleting(true).observed(observed(SPEC, 2)).build()));

        assertThat(c.action()).isEqualTo(Action.DELETE);
        assertThat(c.reason()).isEqualTo(Reason.Deletion);
        assertThat(c.patch()).isEmpty();
        assertThat(planner.plan(input().deleting(true).observed(ObservedView.absent(T0)).build()))
                .isEqualTo(new Decision.InSync());
    }

    @Test
    void shouldPruneAnOrphanUnderPrune() {
        ReconcilePolicy prune = ReconcilePolicy.builder().orphanPolicy(OrphanPolicy.PRUNE).build();

        PlannedCorrection c = emitted(planner.plan(input().desiredSpec(null).generation(0).policy(prune)
                .observed(observed(SPEC, 0)).build()));

        assertThat(c.action()).isEqualTo(Action.DELETE);
        assertThat(c.reason()).isEqualTo(Reason.Orphaned);
    }

    @Test
    void shouldOnlyReportOrIgnoreAnOrphanOtherwise() {
        PlanInput.Builder orphan = input().desiredSpec(null).generation(0).observed(observed(SPEC, 0));
        ReconcilePolicy ignore = ReconcilePolicy.builder().orphanPolicy(OrphanPolicy.IGNORE).build();

        assertThat(planner.plan(orphan.build())).isEqualTo(new Decision.Orphan(OrphanPolicy.REPORT));
        assertThat(planner.plan(orphan.policy(ignore).build())).isEqualTo(new Decision.Orphan(OrphanPolicy.IGNORE));
    }

    @Test
    void shouldBeInSyncWhenNothingIsDesiredOrObserved() {
        assertThat(planner.plan(input().desiredSpec(null).observed(ObservedView.absent(T0)).build()))
                .isEqualTo(new Decision.InSync());
    }

    @Test
    void shouldNotReemitAnIdenticalOutstandingCorrectionBeforeItsDeadline() {
        PlanInput first = input().observed(observed(OLD, 1)).build();
        PlannedCorrection c = emitted(planner.plan(first));

        Decision again = planner.plan(first.toBuilder().lastCorrection(issued("cmd-1", 2, c))
                .now(T0.plusSeconds(10)).build());

        assertThat(again).isEqualTo(new Decision.Wait(c.deadline(),
                "correction cmd-1 (UPDATE/SpecChanged, attempt 1) is outstanding until its deadline"));
    }

    @Test
    void shouldEmitADifferentCorrectionEvenWhileAnotherIsOutstanding() {
        PlannedCorrection c = emitted(planner.plan(input().observed(observed(OLD, 1)).build()));
        Object moreDrift = map("image", "nginx:1.20", "replicas", 1);

        PlannedCorrection next = emitted(planner.plan(input().observed(observed(moreDrift, 1))
                .lastCorrection(issued("cmd-1", 2, c)).now(T0.plusSeconds(1)).build()));

        assertThat(next.attempt()).isEqualTo(1);
        assertThat(next.fingerprint()).isNotEqualTo(c.fingerprint());
    }

    @Test
    void shouldRetryWithBackoffAfterTheDeadlineWithAttemptPlusOne() {
        PlanInput first = input().observed(observed(OLD, 1)).build();
        PlannedCorrection c = emitted(planner.plan(first));
        PlanInput.Builder later = first.toBuilder().lastCorrection(issued("cmd-1", 2, c));

        Decision.Wait wait = (Decision.Wait) planner.plan(later.now(c.deadline()).build());
        Duration backoff = Duration.between(c.deadline(), wait.until());
        Decision retry = planner.plan(later.now(wait.until()).build());

        assertThat(backoff).isBetween(Duration.ofNanos(2_500_000), Duration.ofMillis(5));
        assertThat(planner.plan(later.now(c.deadline().plusMillis(1)).build())).isIn(wait, retry);
        PlannedCorrection r = emitted(retry);
        assertThat(r.attempt()).isEqualTo(2);
        assertThat(r.reason()).isEqualTo(Reason.Retry);
        assertThat(r.fingerprint()).isEqualTo(c.fingerprint());
        assertThat(r.patch()).isEqualTo(c.patch());
    }

    @Test
    void shouldRetryRightAfterBackoffWhenTheAgentAcksWithoutConverging() {
        PlannedCorrection c = emitted(planner.plan(input().observed(observed(OLD, 1)).build()));
        ObservedView acked = ObservedView.present(OLD, 2, T0.plusSeconds(2), "cmd-1");

        Decision d = planner.plan(input().observed(acked).lastCorrection(issued("cmd-1", 2, c))
                .now(T0.plusSeconds(3)).build());

        assertThat(emitted(d).attempt()).isEqualTo(2);
    }

    @Test
    void shouldEndTheInFlightCorrectionWhenTheAgentAcksAndConverges() {
        PlannedCorrection c = emitted(planner.plan(input().observed(observed(OLD, 1)).build()));
        ObservedView acked = ObservedView.present(SPEC, 2, T0.plusSeconds(2), "cmd-1");

        assertThat(planner.plan(input().observed(acked).lastCorrection(issued("cmd-1", 2, c))
                .now(T0.plusSeconds(3)).build())).isEqualTo(new Decision.InSync());
    }

    @Test
    void shouldStallAfterMaxAttempts() {
        ReconcilePolicy three = ReconcilePolicy.builder().maxAttempts(3).build();
        PlanInput first = input().policy(three).observed(observed(OLD, 1)).build();
        PlannedCorrection c = emitted(planner.plan(first));
        LastCorrection third = new LastCorrection("cmd-3", c.action(), Reason.Retry, 2, 3, c.fingerprint(), T0,
                T0.plusSeconds(30));

        Decision d = planner.plan(first.toBuilder().lastCorrection(third).now(T0.plusSeconds(31)).build());

        assertThat(d).isInstanceOf(Decision.Stalled.class);
        assertThat(((Decision.Stalled) d).message()).contains("gave up after 3 attempts");
    }

    @Test
    void shouldResetAttemptsOnANewGeneration() {
        PlannedCorrection c = emitted(planner.plan(input().observed(observed(OLD, 1)).build()));
        LastCorrection tenth = new LastCorrection("cmd-10", c.action(), Reason.Retry, 2, 10, c.fingerprint(), T0,
                T0.plusSeconds(30));
        Object v3 = map("image", "nginx:1.22", "replicas", 5);

        PlannedCorrection next = emitted(planner.plan(input().generation(3).desiredSpec(v3).observed(observed(OLD, 1))
                .lastCorrection(tenth).now(T0.plusSeconds(60)).build()));

        assertThat(next.attempt()).isEqualTo(1);
        assertThat(next.reason()).isEqualTo(Reason.SpecChanged);
    }

    @Test
    void shouldPlanTheSameRetryInstantOnEveryCallForTheSameCorrection() {
        PlanInput first = input().observed(observed(OLD, 1)).build();
        PlannedCorrection c = emitted(planner.plan(first));
        PlanInput.Builder later = first.toBuilder().lastCorrection(new LastCorrection("cmd-5", c.action(),
                Reason.Retry, 2, 5, c.fingerprint(), T0, T0.plusSeconds(30))).now(T0.plusSeconds(30));

        Decision a = planner.plan(later.build());
        Decision b = planner.plan(later.now(T0.plusSeconds(30).plusMillis(1)).build());

        assertThat(a).isInstanceOf(Decision.Wait.class).isEqualTo(b);
    }

    @Test
    void shouldBeDeterministicForTheSameSeed() {
        PlanInput first = input().observed(observed(OLD, 1)).build();
        PlannedCorrection c = emitted(planner.plan(first));
        PlanInput atDeadline = first.toBuilder().lastCorrection(new LastCorrection("cmd-9", c.action(), Reason.Retry,
                2, 9, c.fingerprint(), T0, T0.plusSeconds(30))).now(T0.plusSeconds(30)).build();

        assertThat(new CorrectionPlanner(new SplittableRandom(1)).plan(atDeadline))
                .isEqualTo(new CorrectionPlanner(new SplittableRandom(1)).plan(atDeadline));
    }

    @Test
    void shouldFingerprintActionGenerationAndPatchOnly() {
        List<PatchOp> patch = List.of(PatchOp.set(FieldPath.of("a"), 1));

        assertThat(CorrectionPlanner.fingerprint(Action.UPDATE, 2, patch))
                .isEqualTo(CorrectionPlanner.fingerprint(Action.UPDATE, 2, List.of(PatchOp.set(FieldPath.of("a"), 1))))
                .isNotEqualTo(CorrectionPlanner.fingerprint(Action.UPDATE, 3, patch))
                .isNotEqualTo(CorrectionPlanner.fingerprint(Action.CREATE, 2, patch))
                .hasSize(32);
    }
}
