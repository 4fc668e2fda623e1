package io.statesync.reconciler;

/** How a field of the desired spec differs from the observed state. Same symbols as the Avro enum. */
public enum DiffKind {
    /** Present in desired, absent in observed. */
    MISSING,
    /** Absent in desired, present in observed. */
    UNEXPECTED,
    /** Present on both sides with the same type and different values. */
    VALUE_MISMATCH,
    /** Present on both sides with different types (long vs double only under strict typing). */
    TYPE_MISMATCH
}
