package io.statesync.topology.internal;


import java.time.Instant;
import java.util.List;

import io.statesync.avro.Condition;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.ResourceStatus;
import io.statesync.reconciler.ConditionView;
import io.statesync.reconciler.DiffKind;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.StatusView;
import io.statesync.reconciler.SyncStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroMappingTest {

    @Test
    void shouldMapEverySchemaConstantToTheDomainConstantOfTheSameNameAndBack() {
        assertRoundTrip(io.statesync.avro.SyncStatus.values(), SyncStatus.class, io.statesync.avro.SyncStatus.class);
        assertRoundTrip(io.statesync.avro.DiffKind.values(), DiffKind.class, io.statesync.avro.DiffKind.class);
        assertRoundTrip(io.statesync.avro.Action.values(), io.statesync.reconciler.Action.class, io.statesync.avro.Action.class);
        assertRoundTrip(io.statesync.avro.Reason.values(), io.statesync.reconciler.Reason.class, io.statesync.avro.Reason.class);
        assertThat(SyncStatus.values()).hasSameSizeAs(io.statesync.avro.SyncStatus.values());
        assertThat(DiffKind.values()).hasSameSizeAs(io.statesync.avro.DiffKind.values());
        assertThat(io.statesync.reconciler.Action.values()).hasSameSizeAs(io.statesync.avro.Action.values());
        assertThat(io.statesync.reconciler.Reason.values()).hasSameSizeAs(io.statesync.avro.Reason.values());
    }

    @Test
    void shouldFailWhenAConstantHasNoCounterpart() {
        assertThatThrownBy(() -> AvroMapping.sameName(io.statesync.avro.SyncStatus.Synced, DiffKind.class))
            .isInstanceOf(IllegalArgumentException.class);
    }

    private static <A extends Enum<A>, B extends Enum<B>> void assertRoundTrip(A[] all, Class<B> domain, Class<A> schema) {
        for (A a : all) {
            B there = AvroMapping.sameName(a, domain);
            assertThat(there.name()).isEqualTo(a.name());
            assertThat(AvroMapping.sameName(there, schema)).isSameAs(a);
        }
    }

    private static final Instant SINCE = Instant.parse("2026-11-24T10:00:00Z");

    @Test
    void shouldKeepThePreviousInstanceOfAnUnchangedCondition() {
        ResourceStatus before = AvroMapping.status(view(synced("True", "Synced", SINCE), idle()), null, List.of(), null);

        ResourceStatus after = AvroMapping.status(view(synced("True", "Synced", SINCE), idle()), null,
            before.getConditions(), before.getHealth());

        assertThat(after.getConditions()).hasSize(2);
        assertThat(after.getConditions().get(0)).isSameAs(before.getConditions().get(0));
        assertThat(after.getConditions().get(1)).isSameAs(before.getConditions().get(1));
    }

    @Test
    void shouldBuildANewConditionWhenAnyFieldChanged() {
        ResourceStatus before = AvroMapping.status(view(synced("True", "Synced", SINCE), idle()), null, List.of(), null);
        Instant later = SINCE.plusSeconds(5);

        ResourceStatus after = AvroMapping.status(view(synced("False", "Drift", later), idle()), null,
            before.getConditions(), before.getHealth());

        Condition synced = after.getConditions().get(0);
        assertThat(synced).isNotSameAs(before.getConditions().get(0));
        assertThat(synced.getStatus()).isEqualTo("False");
        assertThat(synced.getReason()).isEqualTo("Drift");
        assertThat(synced.getLastTransitionTime()).isEqualTo(later);
        assertThat(after.getConditions().get(1)).isSameAs(before.getConditions().get(1));
    }

    @Test
    void shouldWriteEveryStatusFieldAsTheBuilderDid() {
        CorrectionRef ref = new CorrectionRef("cmd-1", io.statesync.avro.Action.UPDATE, io.statesync.avro.Reason.Drift,
            3L, 2, SINCE, SINCE.plusSeconds(30));
        FieldDiff diff = new FieldDiff(FieldPath.of("replicas"), DiffKind.VALUE_MISMATCH, 3L, 4L);
        StatusView v = new StatusView(SyncStatus.Progressing, List.of(idle()), List.of(diff), 2, 3, null,
            SINCE.plusSeconds(1));

        ResourceStatus s = AvroMapping.status(v, ref, List.of(), null);

        ResourceStatus built = ResourceStatus.newBuilder().setObservedGeneration(3).setSyncStatus(
                io.statesync.avro.SyncStatus.Progressing).setAttempts(2).setLastCorrection(ref)
            .setLastObservedAt(SINCE.plusSeconds(1))
            .setConditions(List.of(Condition.newBuilder().setType("Progressing").setStatus("False").setReason("Idle")
                .setMessage("").setLastTransitionTime(SINCE).build()))
            .setDiff(List.of(io.statesync.avro.FieldDiff.newBuilder().setPath(List.of("replicas"))
                .setKind(io.statesync.avro.DiffKind.VALUE_MISMATCH).setDesired(AvroMapping.value(3L))
                .setObserved(AvroMapping.value(4L)).build()))
            .build();
        assertThat(s).isEqualTo(built);
    }

    private static StatusView view(ConditionView... conditions) {
        return new StatusView(SyncStatus.Synced, List.of(conditions), List.of(), 0, 1, SINCE, SINCE);
    }

    private static ConditionView synced(String status, String reason, Instant since) {
        return new ConditionView(ConditionView.SYNCED, status, reason, "observed state matches the desired spec", since);
    }

    private static ConditionView idle() {
        return new ConditionView(ConditionView.PROGRESSING, ConditionView.FALSE, "Idle", "", SINCE);
    }
}
