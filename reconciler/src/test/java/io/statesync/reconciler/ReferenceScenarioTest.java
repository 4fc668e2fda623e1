package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The reference scenario (a spec change from V1 to V2, the correction, the agent's report, Synced again) at the pure
 * level: admission, planning and status as docs/contract.md, section 5, gives them, with the agent played by the test.
 */
class ReferenceScenarioTest {
    private static final String KEY = "WebApp/default/test-webapp";
    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final Instant WRITTEN = T0.plusSeconds(10);
    private static final Instant APPLIED = WRITTEN.plusSeconds(2);
    private static final Object V1 = map("image", "nginx:1.20", "replicas", 2, "port", 80,
            "env", map("ENV", "production"));
    private static final Object V2 = map("image", "nginx:1.21", "replicas", 5, "port", 8080,
            "env", map("ENV", "production"));

    private final CorrectionPlanner planner = new CorrectionPlanner(new SplittableRandom(1));

    private static PlanInput.Builder input(long generation, Object desired, ObservedView observed, Instant now) {
        return PlanInput.builder().key(KEY).uid("uid-1").generation(generation).desiredSpec(desired)
                .observed(observed).lastApplied(V1).now(now);
    }

    /** Step 1: generation 1, observed in sync. */
    private StatusView syncedAtGenerationOne() {
        PlanInput in = input(1, V1, ObservedView.present(V1, 1, T0, null), T0).build();
        return StatusCalculator.compute(null, in, planner.plan(in));
    }

    /** Step 2: the spec is replaced; the planner sees the write before the agent has done anything. */
    private PlanInput afterWrite() {
        return input(2, V2, ObservedView.present(V1, 1, T0, null), WRITTEN).build();
    }

    private PlannedCorrection update() {
        return ((Decision.Emit) planner.plan(afterWrite())).correction();
    }

    /** The agent applies the update and acknowledges it. */
    private PlanInput afterAck() {
        Object applied = Patches.apply(V1, update().patch());
        return input(2, V2, ObservedView.present(applied, 2, APPLIED, "cmd-1"), APPLIED).lastApplied(V2)
                .lastCorrection(LastCorrection.of("cmd-1", 2, update())).build();
    }

    @Test
    void shouldPatchExactlyTheThreeChangedFieldsInReferenceScenario() {
        assertThat(syncedAtGenerationOne().syncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(GenerationRules.admit(new StoredSpec(V1, null, null, null, 1), IncomingSpec.of(V2)))
                .isEqualTo(new AdmissionOutcome.SpecChanged(2));

        PlannedCorrection update = update();

        assertThat(update.action()).isEqualTo(Action.UPDATE);
        assertThat(update.reason()).isEqualTo(Reason.SpecChanged);
        assertThat(update.patch()).containsExactlyInAnyOrder(
                PatchOp.set(FieldPath.of("image"), "nginx:1.21"),
                PatchOp.set(FieldPath.of("replicas"), 5),
                PatchOp.set(FieldPath.of("port"), 8080));
    }

    @Test
    void shouldEmitExactlyOneUpdateWhileItIsOutstanding() {
        PlanInput beforeAck = afterWrite().toBuilder().lastCorrection(LastCorrection.of("cmd-1", 2, update()))
                .now(WRITTEN.plusSeconds(1)).build();

        assertThat(planner.plan(beforeAck)).isInstanceOf(Decision.Wait.class);
    }

    @Test
    void shouldBeSyncedAtObservedGenerationTwoOnceTheAgentApplies() {
        StatusView progressing = StatusCalculator.compute(syncedAtGenerationOne(), afterWrite(),
                planner.plan(afterWrite()));

        Decision decision = planner.plan(afterAck());
        StatusView synced = StatusCalculator.compute(progressing, afterAck(), decision);

        assertThat(progressing.syncStatus()).isEqualTo(SyncStatus.Progressing);
        assertThat(decision).isEqualTo(new Decision.InSync());
        assertThat(synced.syncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(synced.observedGeneration()).isEqualTo(2);
        assertThat(StatusCalculator.convergenceTime(progressing, synced, WRITTEN)).isPresent();
    }

    @Test
    void shouldEmitNothingWhenReconcilingAgainWithNoChange() {
        StatusView synced = StatusCalculator.compute(null, afterAck(), new Decision.InSync());
        PlanInput again = afterAck().toBuilder().lastCorrection(null).now(APPLIED.plusSeconds(60)).build();

        assertThat(planner.plan(again)).isEqualTo(new Decision.InSync());
        assertThat(StatusCalculator.compute(synced, again, new Decision.InSync()).sameExceptHeartbeat(synced)).isTrue();
    }

    @Test
    void shouldRestoreReplicasWithOneDriftCorrection() {
        Object drifted = Patches.apply(V2, List.of(PatchOp.set(FieldPath.of("replicas"), 3)));
        Instant later = APPLIED.plusSeconds(70);
        PlanInput drift = afterAck().toBuilder().lastCorrection(null)
                .observed(ObservedView.present(drifted, 2, later, null)).now(later).build();

        PlannedCorrection restore = ((Decision.Emit) planner.plan(drift)).correction();

        assertThat(restore.action()).isEqualTo(Action.UPDATE);
        assertThat(restore.reason()).isEqualTo(Reason.Drift);
        assertThat(restore.patch()).containsExactly(PatchOp.set(FieldPath.of("replicas"), 5));
    }
}
