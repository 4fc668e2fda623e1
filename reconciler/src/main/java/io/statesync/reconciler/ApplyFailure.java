package io.statesync.reconciler;

import java.util.Objects;

/**
 * An agent's report that it could not apply a correction.
 *
 * @param message    the agent's own words
 * @param terminal   retrying the same generation cannot help: the planner stops correcting until the spec changes
 * @param commandId  the correction that failed, or null when the agent did not say
 * @param generation the generation that correction carried
 */
public record ApplyFailure(String message, boolean terminal, String commandId, long generation) {
    public ApplyFailure {
        message = Objects.requireNonNullElse(message, "");
    }

    /** A terminal failure of {@code generation}: the key waits for a new generation. */
    public boolean blocks(long currentGeneration) {
        return terminal && generation == currentGeneration;
    }
}
