package io.statesync.rest.store;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A write's outcome: its HTTP status, admission's reason ({@code DryRun} for a dry run), the version admission
 * answered with (null for a dry run of a write) and the object as stored, or as it would be stored.
 *
 * @param stale a dry run decided against a copy the view could not bring up to the committed end in time
 */
public record WriteResult(int code, String reason, String resourceVersion, JsonNode object, boolean stale) {

    /** The reason of every dry run's result. */
    public static final String DRY_RUN = "DryRun";
}
