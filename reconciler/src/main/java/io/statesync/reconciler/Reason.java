package io.statesync.reconciler;

/** Why a correction was issued. Same symbols as the Avro enum, hence the capitalisation. */
public enum Reason {
    SpecChanged,
    Drift,
    Missing,
    Orphaned,
    Retry,
    Deletion
}
