package io.statesync.reconciler;

/**
 * A field that both statesync (through the desired spec) and someone else (on the observed side) changed since the
 * last apply, to different values. The merge resolves it in favour of desired; this record reports it.
 */
public record FieldConflict(FieldPath path, Object desired, Object observed, Object lastApplied) {
}
