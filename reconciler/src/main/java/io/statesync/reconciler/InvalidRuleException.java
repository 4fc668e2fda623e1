package io.statesync.reconciler;

/** A health or validation rule that does not compile (syntax, types, size); the message is CEL's. */
public final class InvalidRuleException extends IllegalArgumentException {
    public InvalidRuleException(String message) {
        super(message);
    }
}
