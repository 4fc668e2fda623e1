package io.statesync.topology.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.FieldOp;
import io.statesync.avro.FieldOpType;
import io.statesync.avro.Health;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ApplyError;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.Value;
import io.statesync.reconciler.Action;
import io.statesync.reconciler.ConditionView;
import io.statesync.reconciler.DiffKind;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.HealthStatus;
import io.statesync.reconciler.HealthView;
import io.statesync.reconciler.LastCorrection;
import io.statesync.reconciler.ApplyFailure;
import io.statesync.reconciler.ObservedView;
import io.statesync.reconciler.Op;
import io.statesync.reconciler.PatchOp;
import io.statesync.reconciler.Reason;
import io.statesync.reconciler.StatusView;
import io.statesync.reconciler.SyncStatus;
import io.statesync.schemas.Values;

/**
 * Converts between the Avro records on the wire and the reconciler's plain views, at the edge only. The records built
 * on every reconcile use their all-args constructors: a generated builder copies the schema's field array per
 * instance and deep-copies each default it fills in, a measurable share of every reconcile.
 */
public final class AvroMapping {

    private AvroMapping() {
    }

    public static Object tree(Value v) {
        return v == null ? null : Values.toJava(v);
    }

    /** {@link #tree}, normalised (frozen) as the reconciler wants it: the reconciler only walks a frozen tree, where it copies any other. */
    public static Object frozenTree(Value v) {
        return v == null ? null : FrozenTrees.of(v);
    }

    public static Value value(Object tree) {
        return Values.fromJava(tree);
    }

    /** The planner's view of an observation, reusing {@code sharedTree} when its state is {@code shared}'s instance. */
    public static ObservedView observedView(ObservedState o, Value shared, Object sharedTree) {
        if (o == null) {
            return ObservedView.unknown();
        }
        ObservedView view = o.getState() == null
            // Keep the ack: an agent that reports "gone" after a DELETE (or a failed CREATE) has answered that command.
            ? new ObservedView(ObservedView.Presence.ABSENT, null, o.getObservedGeneration(), o.getObservedAt(),
                o.getAckCommandId())
            : ObservedView.present(o.getState() == shared ? sharedTree : frozenTree(o.getState()),
                o.getObservedGeneration(), o.getObservedAt(), o.getAckCommandId());
        ApplyError e = o.getError();
        return e == null ? view
            : view.withError(new ApplyFailure(e.getMessage(), e.getTerminal(), e.getCommandId(), e.getGeneration()));
    }

    /**
     * The schema's enums and the reconciler's share their constants' names; a constant without a counterpart throws,
     * and a test maps every constant both ways so that the two cannot drift apart unnoticed.
     */
    public static <B extends Enum<B>> B sameName(Enum<?> constant, Class<B> to) {
        return Enum.valueOf(to, constant.name());
    }

    /** {@code plannedAttempt} is the planner's own count (within the episode), not the Correction's sequence number. */
    public static LastCorrection lastCorrection(Correction c, String fingerprint, int plannedAttempt) {
        if (c == null) {
            return null;
        }
        return new LastCorrection(c.getCommandId(), sameName(c.getAction(), Action.class),
            sameName(c.getReason(), Reason.class), c.getGeneration(), Math.max(plannedAttempt, 1),
            fingerprint == null ? "" : fingerprint, c.getIssuedAt(), c.getDeadline());
    }

    public static CorrectionRef ref(Correction c) {
        return c == null ? null : new CorrectionRef(c.getCommandId(), c.getAction(), c.getReason(), c.getGeneration(),
            c.getAttempt(), c.getIssuedAt(), c.getDeadline());
    }

    public static List<FieldOp> patch(List<PatchOp> ops) {
        List<FieldOp> out = new ArrayList<>(ops.size());
        for (PatchOp op : ops) {
            boolean set = op.op() == Op.SET;
            out.add(new FieldOp(set ? FieldOpType.SET : FieldOpType.REMOVE, op.path().segments(), set ? value(op.value()) : null));
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
            diff.add(new FieldDiff(new FieldPath(d.getPath()), sameName(d.getKind(), DiffKind.class),
                tree(d.getDesired()), tree(d.getObserved())));
        }
        return new StatusView(sameName(s.getSyncStatus(), SyncStatus.class), conditions, diff, s.getAttempts(),
            s.getObservedGeneration(), s.getConvergedAt(), s.getLastObservedAt(), healthView(s.getHealth()));
    }

    public static HealthView healthView(Health h) {
        return h == null ? HealthView.unknown()
            : new HealthView(sameName(h.getStatus(), HealthStatus.class), h.getMessage(), h.getLastTransitionTime());
    }

    /** The Avro health of {@code v}, reusing {@code previous} when nothing changed (as conditions do). */
    public static Health health(HealthView v, Health previous) {
        io.statesync.avro.HealthStatus status = sameName(v.status(), io.statesync.avro.HealthStatus.class);
        if (previous != null && previous.getStatus() == status && previous.getMessage().equals(v.message())
            && java.util.Objects.equals(previous.getLastTransitionTime(), v.lastTransitionTime())) {
            return previous;
        }
        return new Health(status, v.message(), v.lastTransitionTime());
    }

    /** The conditions an agent reported, for the default health (its Ready condition). */
    public static List<ConditionView> observedConditions(ObservedState o) {
        if (o == null || o.getConditions().isEmpty()) {
            return List.of();
        }
        List<ConditionView> out = new ArrayList<>(o.getConditions().size());
        for (Condition c : o.getConditions()) {
            out.add(new ConditionView(c.getType(), c.getStatus(), c.getReason(), c.getMessage(), c.getLastTransitionTime()));
        }
        return out;
    }

    /**
     * The variables of the kind's health rules: {@code desired} (the spec), {@code observed} ({@code state},
     * {@code status}, {@code conditions} as a list of {@code {type, status, reason, message}}) and {@code resource}
     * (the metadata and the sync status).
     */
    public static Map<String, Object> healthVariables(Resource r, ObservedState o, SyncStatus syncStatus) {
        return healthVariables(r, o, syncStatus, List.of());
    }

    /** {@code children}: the resource's dependents as its task's index knows them, {kind, name, syncStatus, health}. */
    public static Map<String, Object> healthVariables(Resource r, ObservedState o, SyncStatus syncStatus,
                                                      List<Map<String, Object>> children) {
        Map<String, Object> observed = new HashMap<>();
        observed.put("state", o == null ? null : frozenTree(o.getState()));
        observed.put("status", o == null || o.getStatus() == null ? Map.of() : frozenTree(o.getStatus()));
        List<Object> conditions = new ArrayList<>();
        if (o != null) {
            for (Condition c : o.getConditions()) {
                conditions.add(Map.of("type", c.getType(), "status", c.getStatus(), "reason", c.getReason(),
                    "message", c.getMessage()));
            }
        }
        observed.put("conditions", conditions);
        ObjectMeta m = r.getMetadata();
        Map<String, Object> resource = new HashMap<>();
        resource.put("kind", m.getKind());
        resource.put("namespace", m.getNamespace());
        resource.put("name", m.getName());
        resource.put("uid", m.getUid());
        resource.put("generation", m.getGeneration());
        resource.put("labels", Map.copyOf(m.getLabels()));
        resource.put("annotations", Map.copyOf(m.getAnnotations()));
        resource.put("deleting", m.getDeletionTimestamp() != null);
        resource.put("syncStatus", syncStatus.name());
        Map<String, Object> vars = new HashMap<>();
        vars.put("desired", frozenTree(r.getSpec()));
        vars.put("observed", observed);
        vars.put("resource", resource);
        vars.put("children", children);
        return vars;
    }

    /**
     * The Avro status of {@code v}. A condition that did not change keeps the previous status's instance: most
     * reconciles change none, and the decoded state then holds one copy of each, not a new one per reconcile.
     */
    public static ResourceStatus status(StatusView v, CorrectionRef lastCorrection, List<Condition> previous,
                                        Health previousHealth) {
        return status(v, lastCorrection, previous, previousHealth, null);
    }

    /**
     * {@code observed}: the latest observation, whose status and conditions the Resource shows as reported (their
     * instances, shared with the stored observation); none when null.
     */
    public static ResourceStatus status(StatusView v, CorrectionRef lastCorrection, List<Condition> previous,
                                        Health previousHealth, ObservedState observed) {
        List<ConditionView> views = v.conditions();
        List<Condition> conditions = new ArrayList<>(views.size());
        for (int i = 0; i < views.size(); i++) {
            conditions.add(condition(views.get(i), i < previous.size() ? previous.get(i) : null));
        }
        List<io.statesync.avro.FieldDiff> diff = new ArrayList<>(v.diff().size());
        for (FieldDiff d : v.diff()) {
            diff.add(new io.statesync.avro.FieldDiff(d.path().segments(), sameName(d.kind(), io.statesync.avro.DiffKind.class),
                value(d.desired()), value(d.observed())));
        }
        return new ResourceStatus(v.observedGeneration(), sameName(v.syncStatus(), io.statesync.avro.SyncStatus.class), conditions,
            diff, v.attempts(), lastCorrection, v.convergedAt(), v.lastObservedAt(), health(v.health(), previousHealth),
            observed == null ? null : observed.getStatus(), observed == null ? List.of() : observed.getConditions());
    }

    private static Condition condition(ConditionView c, Condition previous) {
        String reason = c.reason() == null ? "" : c.reason();
        String message = c.message() == null ? "" : c.message();
        if (previous != null && previous.getObservedGeneration() == null && c.type().equals(previous.getType())
            && c.status().equals(previous.getStatus()) && reason.equals(previous.getReason())
            && message.equals(previous.getMessage()) && c.lastTransitionTime().equals(previous.getLastTransitionTime())) {
            return previous;
        }
        return new Condition(c.type(), c.status(), reason, message, c.lastTransitionTime(), null);
    }

    public static ResourceStatus initialStatus(Instant now) {
        return ResourceStatus.newBuilder().setSyncStatus(io.statesync.avro.SyncStatus.OutOfSync).build();
    }
}
