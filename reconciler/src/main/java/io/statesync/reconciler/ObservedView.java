package io.statesync.reconciler;

import java.time.Instant;
import java.util.Objects;

/**
 * What the planner knows about the observed side of a key.
 *
 * @param presence           whether an agent has reported the resource, and whether it exists
 * @param state              the observed state tree when {@code PRESENT}, else null
 * @param observedGeneration the generation the agent says it has applied (0 when unknown)
 * @param observedAt         when the report was made; null only for {@code UNKNOWN}
 * @param ackCommandId       the command id the agent acknowledges with this report, or null
 * @param error              the agent's last apply failure, or null when its last apply succeeded
 */
public record ObservedView(Presence presence, Object state, long observedGeneration, Instant observedAt,
                           String ackCommandId, ApplyFailure error) {

    public enum Presence {
        /** The agent reported the resource with a state. */
        PRESENT,
        /** The agent reported that the resource does not exist (tombstone or null state). */
        ABSENT,
        /** No agent ever reported this key. */
        UNKNOWN
    }

    public ObservedView {
        Objects.requireNonNull(presence, "presence");
        state = presence == Presence.PRESENT ? Trees.normalize(state) : null;
    }

    /** A view without an apply failure. */
    public ObservedView(Presence presence, Object state, long observedGeneration, Instant observedAt,
                        String ackCommandId) {
        this(presence, state, observedGeneration, observedAt, ackCommandId, null);
    }

    /** This view carrying {@code failure}. */
    public ObservedView withError(ApplyFailure failure) {
        return new ObservedView(presence, state, observedGeneration, observedAt, ackCommandId, failure);
    }

    /** The agent reported a terminal failure of {@code generation}: correcting it again cannot help. */
    public boolean terminalFor(long generation) {
        return error != null && error.blocks(generation);
    }

    public static ObservedView unknown() {
        return new ObservedView(Presence.UNKNOWN, null, 0, null, null);
    }

    public static ObservedView absent(Instant observedAt) {
        return new ObservedView(Presence.ABSENT, null, 0, observedAt, null);
    }

    public static ObservedView present(Object state, long observedGeneration, Instant observedAt, String ackCommandId) {
        return new ObservedView(Presence.PRESENT, state, observedGeneration, observedAt, ackCommandId);
    }

    public boolean isPresent() {
        return presence == Presence.PRESENT;
    }
}
