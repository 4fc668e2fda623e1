package io.statesync.reconciler;

import java.util.Objects;

/**
 * One health rule of a kind: when the CEL expression {@code when} is true, the health is {@code status} with
 * {@code message} (plain text, not an expression).
 */
public record HealthRule(HealthStatus status, String when, String message) {
    public HealthRule {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(when, "when");
        message = message == null ? "" : message;
    }
}
