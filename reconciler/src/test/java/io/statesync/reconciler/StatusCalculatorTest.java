package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusCalculatorTest {
    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final Object SPEC = map("image", "b", "replicas", 5);
    private static final Object OLD = map("image", "a", "replicas", 5);

    private static PlanInput.Builder input(Object observed, Instant now) {
        return PlanInput.builder().key("WebApp/default/shop").generation(2).desiredSpec(SPEC).lastApplied(OLD)
                .observed(ObservedView.present(observed, 1, now, null)).now(now);
    }

    private static PlannedCorrection correction(Instant now) {
        List<PatchOp> patch = List.of(PatchOp.set(FieldPath.of("image"), "b"));
        return new PlannedCorrection(Action.UPDATE, Reason.SpecChanged, patch, 1, now, now.plusSeconds(30),
                CorrectionPlanner.fingerprint(Action.UPDATE, 2, patch));
    }

    private static String status(StatusView s, String type) {
        return s.condition(type).orElseThrow().status();
    }

    @Test
    void shouldBeProgressingWithTheDiffWhileACorrectionIsIssued() {
        PlannedCorrection c = correction(T0);

        StatusView s = StatusCalculator.compute(null, input(OLD, T0).build(), new Decision.Emit(c));

        assertThat(s.syncStatus()).isEqualTo(SyncStatus.Progressing);
        assertThat(s.attempts()).isEqualTo(1);
        assertThat(s.diff()).containsExactly(new FieldDiff(FieldPath.of("image"), DiffKind.VALUE_MISMATCH, "b", "a"));
        assertThat(status(s, ConditionView.SYNCED)).isEqualTo("False");
        assertThat(s.condition(ConditionView.SYNCED).orElseThrow().reason()).isEqualTo("SpecChanged");
        assertThat(status(s, ConditionView.PROGRESSING)).isEqualTo("True");
        assertThat(status(s, ConditionView.STALLED)).isEqualTo("False");
        assertThat(status(s, ConditionView.OBSERVED_STALE)).isEqualTo("False");
        assertThat(s.conditions()).allSatisfy(cond -> assertThat(cond.lastTransitionTime()).isEqualTo(T0));
    }

    @Test
    void shouldSayRateLimitedWhileAPlannedCorrectionWaitsForItsKindsToken() {
        StatusView s = StatusCalculator.compute(null, input(OLD, T0).build(),
                new Decision.Wait(T0.plusMillis(500), Decision.Wait.RATE_LIMITED));

        assertThat(s.syncStatus()).isEqualTo(SyncStatus.OutOfSync);
        assertThat(s.condition(ConditionView.SYNCED).orElseThrow().reason()).isEqualTo("RateLimited");
        assertThat(status(s, ConditionView.PROGRESSING)).isEqualTo("False");
    }

    @Test
    void shouldBecomeSyncedAndRecordConvergence() {
        StatusView progressing = StatusCalculator.compute(null, input(OLD, T0).build(), new Decision.Emit(correction(T0)));
        Instant t1 = T0.plusSeconds(4);

        StatusView synced = StatusCalculator.compute(progressing,
                input(SPEC, t1).observed(ObservedView.present(SPEC, 2, t1, "cmd-1")).build(), new Decision.InSync());

        assertThat(synced.syncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(synced.observedGeneration()).isEqualTo(2);
        assertThat(synced.convergedAt()).isEqualTo(t1);
        assertThat(synced.attempts()).isZero();
        assertThat(synced.diff()).isEmpty();
        assertThat(StatusCalculator.convergenceTime(progressing, synced, T0.minusSeconds(1)))
                .contains(Duration.ofSeconds(5));
    }

    @Test
    void shouldChangeLastTransitionTimeOnlyWhenAConditionsStatusChanges() {
        StatusView first = StatusCalculator.compute(null, input(OLD, T0).build(), new Decision.Emit(correction(T0)));
        Instant t1 = T0.plusSeconds(4);

        StatusView synced = StatusCalculator.compute(first, input(SPEC, t1).build(), new Decision.InSync());

        assertThat(synced.condition(ConditionView.SYNCED).orElseThrow().lastTransitionTime()).isEqualTo(t1);
        assertThat(synced.condition(ConditionView.STALLED).orElseThrow().lastTransitionTime()).isEqualTo(T0);
        assertThat(synced.condition(ConditionView.OBSERVED_STALE).orElseThrow().lastTransitionTime()).isEqualTo(T0);
    }

    @Test
    void shouldNotChangeOnAHeartbeat() {
        StatusView synced = StatusCalculator.compute(null, input(SPEC, T0).build(), new Decision.InSync());
        Instant later = T0.plusSeconds(60);

        StatusView again = StatusCalculator.compute(synced, input(SPEC, later).build(), new Decision.InSync());

        assertThat(again.sameExceptHeartbeat(synced)).isTrue();
        assertThat(again.lastObservedAt()).isEqualTo(later);
        assertThat(StatusCalculator.convergenceTime(synced, again, T0)).isEmpty();
    }

    @Test
    void shouldNotCountARepairedDriftAsAConvergenceOfTheWrite() {
        Instant written = T0.minusSeconds(100);
        StatusView synced = StatusCalculator.compute(null, input(SPEC, T0).build(), new Decision.InSync());
        StatusView drifted = StatusCalculator.compute(synced, input(OLD, T0.plusSeconds(5)).build(),
                new Decision.Emit(correction(T0.plusSeconds(5))));
        StatusView repaired = StatusCalculator.compute(drifted, input(SPEC, T0.plusSeconds(6)).build(),
                new Decision.InSync());

        assertThat(StatusCalculator.convergenceTime(null, synced, written)).contains(Duration.ofSeconds(100));
        assertThat(repaired.convergedAt()).isEqualTo(T0.plusSeconds(6));
        assertThat(StatusCalculator.convergenceTime(drifted, repaired, written)).isEmpty();
    }

    @Test
    void shouldRaiseObservedStalePastTheStalenessBound() {
        Instant observedAt = T0;
        Instant now = T0.plus(Duration.ofMinutes(11));

        StatusView s = StatusCalculator.compute(null, input(SPEC, now)
                .observed(ObservedView.present(SPEC, 2, observedAt, null)).build(), new Decision.InSync());

        assertThat(status(s, ConditionView.OBSERVED_STALE)).isEqualTo("True");
        assertThat(s.condition(ConditionView.OBSERVED_STALE).orElseThrow().reason()).isEqualTo("NoRecentObservation");
    }

    @Test
    void shouldMarkStaleUnknownWhenNeverObserved() {
        StatusView s = StatusCalculator.compute(null, input(SPEC, T0).observed(ObservedView.unknown()).build(),
                new Decision.Emit(correction(T0)));

        assertThat(status(s, ConditionView.OBSERVED_STALE)).isEqualTo("Unknown");
        assertThat(s.diff()).extracting(FieldDiff::kind).containsExactly(DiffKind.MISSING);
    }

    @Test
    void shouldBeOutOfSyncWhileWaitingForARetry() {
        PlannedCorrection c = correction(T0);
        Instant afterDeadline = c.deadline().plusMillis(1);

        StatusView s = StatusCalculator.compute(null, input(OLD, afterDeadline)
                .lastCorrection(LastCorrection.of("cmd-1", 2, c)).build(),
                new Decision.Wait(afterDeadline.plusMillis(3), "backoff"));

        assertThat(s.syncStatus()).isEqualTo(SyncStatus.OutOfSync);
        assertThat(status(s, ConditionView.PROGRESSING)).isEqualTo("False");
        assertThat(s.attempts()).isEqualTo(1);
    }

    @Test
    void shouldBeProgressingWhileWaitingForAnOutstandingCorrection() {
        PlannedCorrection c = correction(T0);

        StatusView s = StatusCalculator.compute(null, input(OLD, T0.plusSeconds(1))
                .lastCorrection(LastCorrection.of("cmd-1", 2, c)).build(), new Decision.Wait(c.deadline(), "wait"));

        assertThat(s.syncStatus()).isEqualTo(SyncStatus.Progressing);
    }

    @Test
    void shouldBeStalledWithTheStalledCondition() {
        StatusView s = StatusCalculator.compute(null, input(OLD, T0).build(), new Decision.Stalled("gave up"));

        assertThat(s.syncStatus()).isEqualTo(SyncStatus.Stalled);
        assertThat(s.condition(ConditionView.STALLED).orElseThrow())
                .extracting(ConditionView::status, ConditionView::message).containsExactly("True", "gave up");
    }

    @Test
    void shouldBeDeletingWhileDeleting() {
        StatusView s = StatusCalculator.compute(null, input(SPEC, T0).deleting(true).build(), new Decision.InSync());

        assertThat(s.syncStatus()).isEqualTo(SyncStatus.Deleting);
    }

    @Test
    void shouldBeOrphanedForAReportedOrPrunedOrphan() {
        PlanInput orphan = input(SPEC, T0).desiredSpec(null).build();

        assertThat(StatusCalculator.compute(null, orphan, new Decision.Orphan(OrphanPolicy.REPORT)).syncStatus())
                .isEqualTo(SyncStatus.Orphaned);
        assertThat(StatusCalculator.compute(null, orphan, new Decision.Emit(correction(T0))).syncStatus())
                .isEqualTo(SyncStatus.Orphaned);
    }

    @Test
    void shouldListOnlyOwnedDifferencesInTheStatusDiff() {
        Object observed = map("image", "a", "replicas", 5, "sidecar", "istio");

        StatusView s = StatusCalculator.compute(null, input(observed, T0).build(), new Decision.Emit(correction(T0)));

        assertThat(s.diff()).extracting(d -> d.path().format()).containsExactly("image");
    }
}
