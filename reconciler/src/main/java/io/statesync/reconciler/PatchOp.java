package io.statesync.reconciler;

import java.util.Objects;

/** One patch operation: SET a tree at a path (creating parents), or REMOVE the path. {@code value} is null for REMOVE. */
public record PatchOp(Op op, FieldPath path, Object value) {
    public PatchOp {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(path, "path");
        value = op == Op.REMOVE ? null : Trees.normalize(value);
    }

    public static PatchOp set(FieldPath path, Object value) {
        return new PatchOp(Op.SET, path, value);
    }

    public static PatchOp remove(FieldPath path) {
        return new PatchOp(Op.REMOVE, path, null);
    }

    @Override
    public String toString() {
        return op == Op.SET ? "SET " + path + " = " + Trees.toJson(value) : "REMOVE " + path;
    }
}
