package io.statesync.reconciler;

/** What an actuator must do. Same symbols as the Avro enum. */
public enum Action {
    CREATE,
    UPDATE,
    DELETE
}
