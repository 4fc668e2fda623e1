package io.statesync.gc;

import java.util.List;
import java.util.Map;

import io.statesync.avro.Resource;
import io.statesync.reconciler.Propagation;

/**
 * One task's side of ownership as its reconciler sees it: what it publishes and deletes goes to the owners' dependents
 * index, an owner's deletion sends the collector's commands, and the health rules read an owner's dependents.
 * Everything it writes is part of the transaction of the input that caused it.
 */
public interface DependentsIndex {

    /** A Resource was published: each owner it names hears what the dependent is now (uid, references, status). */
    void published(String key, Resource r, long ts);

    /** A deletion completed: its owners' indexes lose it, and every dependent still indexed under it is collected. */
    void deleted(String key, Resource last, long ts);

    /** A write dropped some owners: their indexes lose this dependent. */
    void referencesChanged(String key, Resource before, Resource after, long ts);

    /**
     * The owner's delete was admitted: the policy's commands go out, orphaned dependents leave the index, and a
     * foreground deletion that has blocking dependents keeps the owner with the foreground finalizer.
     */
    void deleting(String ownerKey, Resource owner, Propagation policy, long ts);

    /** The owner's dependents as the health rules' {@code children} see them: kind, name, syncStatus, health. */
    List<Map<String, Object>> children(String ownerKey);
}
