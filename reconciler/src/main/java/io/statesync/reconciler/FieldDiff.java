package io.statesync.reconciler;

import java.util.Objects;

/**
 * One field-level difference. {@code desired} and {@code observed} are trees; an absent side is {@code null}
 * (the kind tells absent from a present null).
 */
public record FieldDiff(FieldPath path, DiffKind kind, Object desired, Object observed) {
    public FieldDiff {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
    }

    @Override
    public String toString() {
        return kind + " " + path + ": desired=" + Trees.toJson(desired) + " observed=" + Trees.toJson(observed);
    }
}
