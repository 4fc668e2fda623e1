package io.statesync.agent;

/**
 * Thrown by {@link ResourceAgent#apply} for a failure that retrying cannot fix, such as an invalid image name: the
 * report says so ({@code ObservedState.error.terminal}), and statesync marks the resource Stalled at once and sends no
 * more corrections for its generation; a changed spec (a new generation) starts again. Any other exception is
 * transient and retried with backoff.
 */
public class TerminalApplyException extends Exception {

    private static final long serialVersionUID = 1L;

    public TerminalApplyException(String message) {
        super(message);
    }

    public TerminalApplyException(String message, Throwable cause) {
        super(message, cause);
    }
}
