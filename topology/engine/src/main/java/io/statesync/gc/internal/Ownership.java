package io.statesync.gc.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.Resource;
import io.statesync.reconciler.OwnerCollector;
import io.statesync.reconciler.Propagation;
import io.statesync.gc.CollectorMetrics;
import io.statesync.gc.DependentRecord;
import io.statesync.gc.DependentsIndex;
import io.statesync.topology.TopologyNames;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One task's side of ownership ({@link DependentsIndex}): it tells each owner's task about the dependents that name it (the dependents index
 * topic, partitioned by the owner's key), keeps the index of the dependents that name the owners it holds, and sends
 * the collector's commands (the collect topic, keyed by the dependent). Everything it writes is part of the
 * transaction of the input that caused it, so a restart neither loses nor repeats a decision.
 */
public final class Ownership implements DependentsIndex {

    private static final StringSerializer KEYS = new StringSerializer();

    private final ProcessorContext<Object, Object> pc;
    private final KeyValueStore<String, byte[]> index;
    private final CollectorMetrics metrics;
    private final String task;

    public Ownership(ProcessorContext<Object, Object> pc, CollectorMetrics metrics) {
        this.pc = pc;
        this.index = pc.getStateStore(TopologyNames.DEPENDENTS_STORE);
        this.metrics = metrics;
        this.task = pc.taskId().toString();
    }

    @Override
    public void published(String key, Resource r, long ts) {
        announce(key, r, ts);
    }

    @Override
    public void deleted(String key, Resource last, long ts) {
        for (OwnerReference ref : last.getMetadata().getOwnerReferences()) {
            withdraw(key, ownerKey(last.getMetadata(), ref), ts);
        }
        ownerGone(key, ts);
    }

    /** Tells each owner of a published dependent what the dependent is now (uid, references, status). */
    private void announce(String key, Resource r, long ts) {
        ObjectMeta m = r.getMetadata();
        for (OwnerReference ref : m.getOwnerReferences()) {
            String health = r.getStatus().getHealth() == null ? "Unknown" : r.getStatus().getHealth().getStatus().name();
            DependentRecord rec = new DependentRecord(key, m.getUid(), ref.getUid(), ref.getController(),
                ref.getBlockOwnerDeletion(), r.getStatus().getSyncStatus().name(), health);
            pc.forward(new Record<>(DependentRecord.key(ownerKey(m, ref), key), rec.encode(), ts), TopologyNames.DEPENDENTS_SINK);
        }
    }

    @Override
    public void referencesChanged(String key, Resource before, Resource after, long ts) {
        if (before == null || before.getMetadata().getOwnerReferences().isEmpty()) {
            return;
        }
        Set<String> kept = new HashSet<>();
        for (OwnerReference ref : after.getMetadata().getOwnerReferences()) {
            kept.add(ownerKey(after.getMetadata(), ref));
        }
        for (OwnerReference ref : before.getMetadata().getOwnerReferences()) {
            String owner = ownerKey(before.getMetadata(), ref);
            if (!kept.contains(owner)) {
                withdraw(key, owner, ts);
            }
        }
    }

    void withdraw(String dependentKey, String ownerKey, long ts) {
        pc.forward(new Record<>(DependentRecord.key(ownerKey, dependentKey), null, ts), TopologyNames.DEPENDENTS_SINK);
    }

    @Override
    public void deleting(String ownerKey, Resource owner, Propagation policy, long ts) {
        String uid = owner.getMetadata().getUid();
        OwnerCollector.Deletion d = OwnerCollector.onOwnerDeleting(ownerKey, uid, policy, entries(ownerKey));
        for (OwnerCollector.Command c : d.commands()) {
            send(c, ts);
            if (c.action() == OwnerCollector.Action.ORPHAN) {
                store(DependentRecord.key(ownerKey, c.dependentKey()), null);
            }
        }
        List<String> finalizers = owner.getMetadata().getFinalizers();
        if (d.waitForDependents() && !finalizers.contains(OwnerCollector.FOREGROUND_FINALIZER)) {
            List<String> more = new ArrayList<>(finalizers);
            more.add(OwnerCollector.FOREGROUND_FINALIZER);
            owner.getMetadata().setFinalizers(more);
            metrics.foregroundWaiting(task, ownerKey, true);
        }
    }

    /** The owner's deletion completed: every dependent still indexed under it is collected. */
    void ownerGone(String ownerKey, long ts) {
        metrics.foregroundWaiting(task, ownerKey, false);
        for (OwnerCollector.Command c : OwnerCollector.onOwnerGone(ownerKey, entries(ownerKey))) {
            send(c, ts);
        }
    }

    void send(OwnerCollector.Command c, long ts) {
        pc.forward(new Record<>(c.dependentKey(), CollectCommands.encode(c), ts), TopologyNames.COLLECT_SINK);
        metrics.commandEmitted(c.action().name());
    }

    /** The owner's index entries, as the collector reads them. */
    List<OwnerCollector.Dependent> entries(String ownerKey) {
        List<OwnerCollector.Dependent> out = new ArrayList<>();
        for (DependentRecord r : records(ownerKey)) {
            out.add(r.entry());
        }
        return out;
    }

    @Override
    public List<java.util.Map<String, Object>> children(String ownerKey) {
        List<java.util.Map<String, Object>> out = new ArrayList<>();
        for (DependentRecord r : records(ownerKey)) {
            String key = r.dependentKey();
            out.add(java.util.Map.of("kind", key.substring(0, key.indexOf('/')), "name", key.substring(key.lastIndexOf('/') + 1),
                "syncStatus", r.syncStatus(), "health", r.health(), "controller", r.controller()));
        }
        return out;
    }

    List<DependentRecord> records(String ownerKey) {
        List<DependentRecord> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = index.prefixScan(DependentRecord.prefix(ownerKey), KEYS)) {
            it.forEachRemaining(kv -> out.add(DependentRecord.decode(kv.key, kv.value)));
        }
        return out;
    }

    /** Stores or (with null) removes one index entry, keeping the entry count; returns the entry it replaced. */
    byte[] store(String indexKey, byte[] value) {
        byte[] old = value == null ? index.delete(indexKey) : index.get(indexKey);
        if (value != null) {
            index.put(indexKey, value);
        }
        long delta = (value == null ? 0 : 1) - (old == null ? 0 : 1);
        if (delta != 0) {
            metrics.indexDelta(task, delta);
        }
        return old;
    }

    /** Counts the task's entries and the owners waiting in a foreground deletion, when the task is assigned. */
    void recount(java.util.function.Predicate<String> waitsInForeground) {
        long n = 0;
        Set<String> owners = new HashSet<>();
        try (KeyValueIterator<String, byte[]> it = index.all()) {
            while (it.hasNext()) {
                owners.add(DependentRecord.ownerKey(it.next().key));
                n++;
            }
        }
        metrics.indexCount(task, n);
        owners.stream().filter(waitsInForeground).forEach(o -> metrics.foregroundWaiting(task, o, true));
    }

    void forget() {
        metrics.taskClosed(task);
    }

    static String ownerKey(ObjectMeta dependent, OwnerReference ref) {
        return ref.getKind() + "/" + dependent.getNamespace() + "/" + ref.getName();
    }
}
