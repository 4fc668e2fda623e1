package io.statesync.reconciler.internal;

import io.statesync.reconciler.DiffKind;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The walk behind {@link io.statesync.reconciler.Differ}. */
public final class TreeDiffer {
    private final CompiledPolicy policy;
    private final List<FieldDiff> out = new ArrayList<>();

    private TreeDiffer(CompiledPolicy policy) {
        this.policy = policy;
    }

    public static List<FieldDiff> diff(Object desired, Object observed, ReconcilePolicy policy) {
        TreeDiffer differ = new TreeDiffer(CompiledPolicy.of(policy));
        PathNode root = PathNode.ROOT;
        if (policy.ignoredPaths().contains("") || (desired == null && observed == null)) {
            return List.of();
        }
        if (desired == null) {
            differ.add(root, DiffKind.UNEXPECTED, null, observed);
        } else if (observed == null) {
            differ.add(root, DiffKind.MISSING, desired, null);
        } else {
            differ.compare(root, desired, observed);
        }
        return List.copyOf(differ.out);
    }

    private void compare(PathNode path, Object d, Object o) {
        if (d == o || Trees.deepEquals(d, o, policy.strictTyping())) {
            // Equal subtrees have no diff whatever the policy, and an allocation-free equality check is much cheaper
            // than the walk; reconciliation mostly sees equal subtrees.
            return;
        }
        if (d instanceof Map<?, ?> dm && o instanceof Map<?, ?> om) {
            compareMaps(path, dm, om, null);
        } else if (d instanceof List<?> && o instanceof List<?>) {
            compareLists(path, d, o);
        } else {
            add(path, Trees.sameType(d, o, policy.strictTyping()) ? DiffKind.VALUE_MISMATCH : DiffKind.TYPE_MISMATCH,
                    d, o);
        }
    }

    /** Compares two maps, or two keyed lists indexed by key string when {@code keyField} is set. */
    private void compareMaps(PathNode path, Map<?, ?> d, Map<?, ?> o, String keyField) {
        for (Map.Entry<?, ?> e : d.entrySet()) {
            Object key = e.getKey();
            PathNode child = path.child(key.toString(), keyField);
            if (policy.ignored(child)) {
                continue;
            }
            Object ov = o.get(key);
            if (ov == null && !o.containsKey(key)) {
                add(child, DiffKind.MISSING, e.getValue(), null);
            } else {
                compare(child, e.getValue(), ov);
            }
        }
        for (Map.Entry<?, ?> e : o.entrySet()) {
            if (!d.containsKey(e.getKey())) {
                PathNode child = path.child(e.getKey().toString(), keyField);
                if (!policy.ignored(child)) {
                    add(child, DiffKind.UNEXPECTED, null, e.getValue());
                }
            }
        }
    }

    private void compareLists(PathNode path, Object d, Object o) {
        String keyField = policy.mergeKey(path);
        Map<String, Object> dk = keyField == null ? null : KeyedList.index(d, keyField);
        Map<String, Object> ok = dk == null ? null : KeyedList.index(o, keyField);
        if (ok != null) {
            compareMaps(path, dk, ok, keyField);
        } else if (!policy.equal(path, d, o)) {
            add(path, DiffKind.VALUE_MISMATCH, d, o);
        }
    }

    private void add(PathNode path, DiffKind kind, Object desired, Object observed) {
        out.add(new FieldDiff(path.toFieldPath(), kind, desired, observed));
    }
}
