package io.statesync.reconciler;

/** What to do with an observed resource that has no desired counterpart. */
public enum OrphanPolicy {
    /** Plan nothing; the caller need not publish the orphan. */
    IGNORE,
    /** Plan nothing, but the resource's syncStatus is Orphaned so that people see it. */
    REPORT,
    /** Emit DELETE with reason Orphaned. */
    PRUNE
}
