package io.statesync.agent;

import java.io.IOException;

/**
 * A refusal of statesync's REST API: the HTTP status and the {@code reason} of its {@code {code, reason, message}}
 * body, and for a 409 the object's current resourceVersion (empty when it does not exist).
 */
public final class StatesyncApiException extends IOException {

    private final int status;
    private final String reason;
    private final String resourceVersion;

    public StatesyncApiException(int status, String reason, String message, String resourceVersion) {
        super("HTTP " + status + " " + reason + ": " + message);
        this.status = status;
        this.reason = reason;
        this.resourceVersion = resourceVersion;
    }

    public int status() {
        return status;
    }

    /** The body's reason (Conflict, AlreadyExists, NotFound, ...), or empty when the body had none. */
    public String reason() {
        return reason;
    }

    /** For a 409, the version the write lost to; null otherwise. */
    public String resourceVersion() {
        return resourceVersion;
    }

    /** A conditional write found a newer resourceVersion: reading again and repeating the change can succeed. */
    public boolean isConflict() {
        return status == 409 && "Conflict".equals(reason);
    }
}
