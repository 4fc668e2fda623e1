package io.statesync.topology.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.FieldOp;
import io.statesync.avro.FieldOpType;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.Value;
import io.statesync.reconciler.ConditionView;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.LastCorrection;
import io.statesync.reconciler.ObservedView;
import io.statesync.reconciler.Op;
import io.statesync.reconciler.PatchOp;
import io.statesync.reconciler.StatusView;
import io.statesync.schemas.Values;

/** Converts between the Avro records on the wire and the reconciler's plain views, at the edge only. */
public final class AvroMapping {

    private AvroMapping() {
    }

    public static Object tree(Value v) {
        return v == null ? null : Values.toJava(v);
    }

    /**
     * {@link #tree}, normalised (frozen) as the reconciler wants it, and remembered per instance on the stream thread
     * (see {@link TreeCache}): the reconciler only walks a frozen tree, where it copies any other.
     */
    static Object cachedTree(Value v) {
        return v == null ? null : TreeCache.current().tree(v, FrozenTrees::of);
    }

    public static Value value(Object tree) {
        return Values.fromJava(tree);
    }

    public static ObservedView observedView(ObservedState o) {
        if (o == null) {
            return ObservedView.unknown();
        }
        if (o.getState() == null) {
            // Keep the ack: an agent that reports "gone" after a DELETE (or a failed CREATE) has answered that command.
            return new ObservedView(ObservedView.Presence.ABSENT, null, o.getObservedGeneration(), o.getObservedAt(),
                o.getAckCommandId());
        }
        return ObservedView.present(cachedTree(o.getState()), o.getObservedGeneration(), o.getObservedAt(), o.getAckCommandId());
    }

    /** {@code plannedAttempt} is the planner's own count (within the episode), not the Correction's sequence number. */
    public static LastCorrection lastCorrection(Correction c, String fingerprint, int plannedAttempt) {
        if (c == null) {
            return null;
        }
        return new LastCorrection(c.getCommandId(), EnumMappings.ACTION.get(c.getAction()),
            EnumMappings.REASON.get(c.getReason()), c.getGeneration(), Math.max(plannedAttempt, 1),
            fingerprint == null ? "" : fingerprint, c.getIssuedAt(), c.getDeadline());
    }

    public static CorrectionRef ref(Correction c) {
        return c == null ? null : CorrectionRef.newBuilder().setCommandId(c.getCommandId()).setAction(c.getAction())
            .setReason(c.getReason()).setGeneration(c.getGeneration()).setAttempt(c.getAttempt())
            .setIssuedAt(c.getIssuedAt()).setDeadline(c.getDeadline()).build();
    }

    public static List<FieldOp> patch(List<PatchOp> ops) {
        List<FieldOp> out = new ArrayList<>(ops.size());
        for (PatchOp op : ops) {
            out.add(FieldOp.newBuilder().setOp(op.op() == Op.SET ? FieldOpType.SET : FieldOpType.REMOVE)
                .setPath(op.path().segments()).setValue(op.op() == Op.SET ? value(op.value()) : null).build());
        }
        return out;
    }

    public static StatusView statusView(ResourceStatus s) {
        List<ConditionView> conditions = new ArrayList<>();
        for (Condition c : s.getConditions()) {
            conditions.add(new ConditionView(c.getType(), c.getStatus(), c.getReason(), c.getMessage(), c.getLastTransitionTime()));
        }
        List<FieldDiff> diff = new ArrayList<>();
        for (io.statesync.avro.FieldDiff d : s.getDiff()) {
            diff.add(new FieldDiff(new FieldPath(d.getPath()), EnumMappings.DIFF_KIND.get(d.getKind()),
                tree(d.getDesired()), tree(d.getObserved())));
        }
        return new StatusView(EnumMappings.SYNC_STATUS.get(s.getSyncStatus()), conditions, diff, s.getAttempts(),
            s.getObservedGeneration(), s.getConvergedAt(), s.getLastObservedAt());
    }

    public static ResourceStatus status(StatusView v, CorrectionRef lastCorrection) {
        List<Condition> conditions = new ArrayList<>();
        for (ConditionView c : v.conditions()) {
            conditions.add(Condition.newBuilder().setType(c.type()).setStatus(c.status())
                .setReason(c.reason() == null ? "" : c.reason()).setMessage(c.message() == null ? "" : c.message())
                .setLastTransitionTime(c.lastTransitionTime()).build());
        }
        List<io.statesync.avro.FieldDiff> diff = new ArrayList<>();
        for (FieldDiff d : v.diff()) {
            diff.add(io.statesync.avro.FieldDiff.newBuilder().setPath(d.path().segments())
                .setKind(EnumMappings.AVRO_DIFF_KIND.get(d.kind()))
                .setDesired(value(d.desired())).setObserved(value(d.observed())).build());
        }
        return ResourceStatus.newBuilder().setSyncStatus(EnumMappings.AVRO_SYNC_STATUS.get(v.syncStatus()))
            .setConditions(conditions).setDiff(diff).setAttempts(v.attempts()).setObservedGeneration(v.observedGeneration())
            .setLastCorrection(lastCorrection).setConvergedAt(v.convergedAt()).setLastObservedAt(v.lastObservedAt())
            .build();
    }

    public static ResourceStatus initialStatus(Instant now) {
        return ResourceStatus.newBuilder().setSyncStatus(io.statesync.avro.SyncStatus.OutOfSync).build();
    }
}
