package io.statesync.gc.internal;

import java.util.ArrayList;
import java.util.List;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.gc.CollectedTask;
import io.statesync.gc.CollectorMetrics;
import io.statesync.gc.DependentRecord;
import io.statesync.gc.OwnerReferences;
import io.statesync.reconciler.OwnerCollector;

/**
 * The garbage collector in a task: on the owner's side it keeps the dependents index and decides (through {@link
 * OwnerCollector}); on the dependent's side it applies a command only while the dependent still names that owner's
 * uid, so a late, repeated or superseded command changes nothing.
 */
final class Collector {

    private final CollectedTask task;
    private final Ownership ownership;
    private final CollectorMetrics metrics;

    Collector(CollectedTask task, Ownership ownership, CollectorMetrics metrics) {
        this.task = task;
        this.ownership = ownership;
        this.metrics = metrics;
    }

    /** The task was assigned: count its index entries and the owners that wait in a foreground deletion. */
    void recount() {
        ownership.recount(ownerKey -> {
            OwnerCollector.Owner o = owner(ownerKey);
            return o != null && o.foreground();
        });
    }

    /** An index record for an owner this task holds (or would hold): store it, collect the dependent if its owner is gone. */
    void indexed(String indexKey, byte[] value, long ts, long now) {
        String ownerKey = DependentRecord.ownerKey(indexKey);
        byte[] old = ownership.store(indexKey, value);
        OwnerCollector.Owner owner = owner(ownerKey);
        if (value != null) {
            OwnerCollector.onIndexed(ownerKey, owner, DependentRecord.decode(indexKey, value).entry())
                .ifPresent(c -> ownership.send(c, ts));
        }
        if (owner != null && owner.foreground()
            && OwnerCollector.foregroundDone(owner.uid(), ownership.entries(ownerKey))) {
            metrics.foregroundWaiting(task.task(), ownerKey, false);
            task.dropFinalizer(ownerKey, OwnerCollector.FOREGROUND_FINALIZER, now);
        } else if (owner != null && childChanged(indexKey, old, value)) {
            task.reconcileDependents(ownerKey, now);
        }
    }

    /** A child appeared, went, or moved its sync status or health: what the owner's health rules read. */
    private static boolean childChanged(String indexKey, byte[] old, byte[] value) {
        if (old == null || value == null) {
            return old != value;
        }
        DependentRecord before = DependentRecord.decode(indexKey, old);
        DependentRecord after = DependentRecord.decode(indexKey, value);
        return !before.syncStatus().equals(after.syncStatus()) || !before.health().equals(after.health());
    }

    /** A command for a dependent this task holds. */
    void command(String dependentKey, byte[] value, long ts, long now) {
        OwnerCollector.Command c = CollectCommands.decode(dependentKey, value);
        Resource r = task.resource(dependentKey);
        boolean applies = r != null && OwnerCollector.applies(r.getMetadata().getNamespace(),
            OwnerReferences.toReconciler(r.getMetadata().getOwnerReferences()), c);
        metrics.commandProcessed(applies);
        if (!applies) {
            return;
        }
        if (c.action() == OwnerCollector.Action.ORPHAN) {
            ObjectMeta m = r.getMetadata();
            m.setOwnerReferences(new ArrayList<>(OwnerReferences.toSchema(
                OwnerCollector.without(OwnerReferences.toReconciler(m.getOwnerReferences()), c.ownerUid()))));
            ownership.withdraw(dependentKey, c.ownerKey(), ts);
            task.reconcileChanged(dependentKey, now);
            metrics.collected(c.propagation().name());
            return;
        }
        if (r.getMetadata().getDeletionTimestamp() == null) {
            metrics.collected(c.propagation().name());
        }
        task.delete(dependentKey, c.propagation(), ts, now);
    }

    /** The owner as this task holds it; null when it holds none (an orphan placeholder is none). */
    private OwnerCollector.Owner owner(String ownerKey) {
        Resource r = task.resource(ownerKey);
        if (r == null) {
            return null;
        }
        ObjectMeta m = r.getMetadata();
        List<String> f = m.getFinalizers();
        return new OwnerCollector.Owner(m.getUid(), m.getDeletionTimestamp() != null
            && f.contains(OwnerCollector.FOREGROUND_FINALIZER));
    }
}
