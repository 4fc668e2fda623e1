package io.statesync.reconciler;

import java.util.Objects;

/**
 * A CEL validation rule on the spec, as a CRD's {@code x-kubernetes-validations}: {@code rule} sees the spec as
 * {@code self} and, on an update, the stored spec as {@code oldSelf}. {@code message} replaces the default failure
 * text, and {@code fieldPath} names the field the failure is about.
 */
public record ValidationRule(String rule, String message, String fieldPath) {
    public ValidationRule {
        Objects.requireNonNull(rule, "rule");
        message = message == null ? "" : message;
        fieldPath = fieldPath == null ? "" : fieldPath;
    }
}
