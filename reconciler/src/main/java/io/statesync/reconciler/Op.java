package io.statesync.reconciler;

/** A patch operation. Same symbols as the Avro {@code FieldOpType}. */
public enum Op {
    SET,
    REMOVE
}
