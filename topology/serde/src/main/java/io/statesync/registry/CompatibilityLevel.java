package io.statesync.registry;

/** The Confluent compatibility levels. statesync's topics use {@link #BACKWARD}. */
public enum CompatibilityLevel {
    NONE,
    BACKWARD,
    BACKWARD_TRANSITIVE,
    FORWARD,
    FORWARD_TRANSITIVE,
    FULL,
    FULL_TRANSITIVE;

    /** Whether consumers on the new schema must read data written with the older ones. */
    public boolean checksBackward() {
        return this == BACKWARD || this == BACKWARD_TRANSITIVE || this == FULL || this == FULL_TRANSITIVE;
    }

    /** Whether consumers on older schemas must read data written with the new one. */
    public boolean checksForward() {
        return this == FORWARD || this == FORWARD_TRANSITIVE || this == FULL || this == FULL_TRANSITIVE;
    }

    /** Whether the check runs against every earlier version rather than the latest only. */
    public boolean isTransitive() {
        return name().endsWith("_TRANSITIVE");
    }
}
