package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** DESIGN section 8 at the pure level: admission, planning and status, with the agent played by the test. */
class ReferenceScenarioTest {
    private static final String KEY = "WebApp/default/test-webapp";
    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final Object V1 = map("image", "nginx:1.20", "replicas", 2, "port", 80,
            "env", map("ENV", "production"));
    private static final Object V2 = map("image", "nginx:1.21", "replicas", 5, "port", 8080,
            "env", map("ENV", "production"));

    private final CorrectionPlanner planner = new CorrectionPlanner(new SplittableRandom(1));

    private PlanInput.Builder input(long generation, Object desired, ObservedView observed, Instant now) {
        return PlanInput.builder().key(KEY).uid("uid-1").generation(generation).desiredSpec(desired)
                .observed(observed).lastApplied(V1).now(now);
    }

    @Test
    void shouldPatchExactlyTheThreeChangedFieldsInReferenceScenario() {
        StoredSpec stored = new StoredSpec(V1, null, null, null, 1);
        ObservedView inSyncAtGen1 = ObservedView.present(V1, 1, T0, null);
        StatusView status = StatusCalculator.compute(null, input(1, V1, inSyncAtGen1, T0).build(),
                planner.plan(input(1, V1, inSyncAtGen1, T0).build()));
        assertThat(status.syncStatus()).isEqualTo(SyncStatus.Synced);

        AdmissionOutcome admitted = GenerationRules.admit(stored, IncomingSpec.of(V2));
        assertThat(admitted).isEqualTo(new AdmissionOutcome.SpecChanged(2));

        Instant t1 = T0.plusSeconds(10);
        PlanInput afterWrite = input(2, V2, inSyncAtGen1, t1).build();
        Decision decision = planner.plan(afterWrite);
        assertThat(decision).isInstanceOf(Decision.Emit.class);
        PlannedCorrection update = ((Decision.Emit) decision).correction();
        assertThat(update.action()).isEqualTo(Action.UPDATE);
        assertThat(update.reason()).isEqualTo(Reason.SpecChanged);
        assertThat(update.patch()).containsExactlyInAnyOrder(
                PatchOp.set(FieldPath.of("image"), "nginx:1.21"),
                PatchOp.set(FieldPath.of("replicas"), 5),
                PatchOp.set(FieldPath.of("port"), 8080));
        status = StatusCalculator.compute(status, afterWrite, decision);
        assertThat(status.syncStatus()).isEqualTo(SyncStatus.Progressing);
        LastCorrection outstanding = LastCorrection.of("cmd-1", 2, update);

        PlanInput beforeAck = afterWrite.toBuilder().lastCorrection(outstanding).now(t1.plusSeconds(1)).build();
        assertThat(planner.plan(beforeAck)).isInstanceOf(Decision.Wait.class);

        Instant t2 = t1.plusSeconds(2);
        Object applied = Patches.apply(V1, update.patch());
        ObservedView acked = ObservedView.present(applied, 2, t2, "cmd-1");
        PlanInput afterAck = input(2, V2, acked, t2).lastApplied(V2).lastCorrection(outstanding).build();
        decision = planner.plan(afterAck);
        assertThat(decision).isEqualTo(new Decision.InSync());
        StatusView synced = StatusCalculator.compute(status, afterAck, decision);
        assertThat(synced.syncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(synced.observedGeneration()).isEqualTo(2);
        assertThat(StatusCalculator.convergenceTime(status, synced, t1)).isPresent();

        PlanInput again = afterAck.toBuilder().lastCorrection(null).now(t2.plusSeconds(60)).build();
        assertThat(planner.plan(again)).isEqualTo(new Decision.InSync());
        assertThat(StatusCalculator.compute(synced, again, new Decision.InSync()).sameExceptHeartbeat(synced)).isTrue();

        Object drifted = Patches.apply(applied, java.util.List.of(PatchOp.set(FieldPath.of("replicas"), 3)));
        PlanInput drift = again.toBuilder().observed(ObservedView.present(drifted, 2, t2.plusSeconds(70), null))
                .now(t2.plusSeconds(70)).build();
        decision = planner.plan(drift);
        PlannedCorrection restore = ((Decision.Emit) decision).correction();
        assertThat(restore.action()).isEqualTo(Action.UPDATE);
        assertThat(restore.reason()).isEqualTo(Reason.Drift);
        assertThat(restore.patch()).containsExactly(PatchOp.set(FieldPath.of("replicas"), 5));
    }
}
