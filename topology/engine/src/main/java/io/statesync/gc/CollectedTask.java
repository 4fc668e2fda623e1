package io.statesync.gc;

import io.statesync.avro.Resource;
import io.statesync.reconciler.Propagation;

/**
 * A stream task as the garbage collector sees it: the keys it holds and the reconciles the collector asks of it. The
 * engine implements it over the task's one reconciler, so that what the collector causes is planned and paced like
 * any other input of the task.
 */
public interface CollectedTask {

    /** The task's id, which the collector's meters are kept by. */
    String task();

    /**
     * The Resource stored under {@code key}, which the caller may change in place and then reconcile with {@link
     * #reconcileChanged}; null when the key holds none, or only an observed resource without a desired one.
     */
    Resource resource(String key);

    /** Reconciles {@code key}, whose stored Resource (from {@link #resource}) the caller changed. */
    void reconcileChanged(String key, long now);

    /** Reconciles an owner whose dependents changed, so that health rules over its {@code children} see them. */
    void reconcileDependents(String ownerKey, long now);

    /** Takes a finalizer off a stored Resource and reconciles it, which completes a deletion nothing else holds. */
    void dropFinalizer(String key, String finalizer, long now);

    /** Admits the deletion of {@code key} with {@code propagation} for its own dependents, as a delete written at {@code eventTime}. */
    void delete(String key, Propagation propagation, long eventTime, long now);
}
