package io.statesync.reconciler;

/** Where a resource stands. Same symbols as the Avro enum. */
public enum SyncStatus {
    Synced,
    OutOfSync,
    Progressing,
    Stalled,
    Deleting,
    Orphaned
}
