package io.statesync.reconciler.internal;

import io.statesync.reconciler.FieldConflict;
import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.MergeResult;
import io.statesync.reconciler.PatchOp;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.Trees;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The walk behind {@link io.statesync.reconciler.ThreeWayMerge}. The target is built by the same steps as
 * {@link PatchApplier} replays the patch (existing keys keep their place, new ones are appended, removed ones dropped),
 * so applying the patch to observed gives exactly the target.
 */
public final class MergeEngine {
    /** Stands for "not there" in last-applied, where null is a legitimate value. */
    private static final Object ABSENT = new Object();

    private final CompiledPolicy policy;
    private final List<PatchOp> ops = new ArrayList<>();
    private final List<FieldConflict> conflicts = new ArrayList<>();

    private MergeEngine(CompiledPolicy policy) {
        this.policy = policy;
    }

    public static MergeResult merge(Object desired, Object observed, Object lastApplied, ReconcilePolicy policy) {
        if (desired == null || policy.ignoredPaths().contains("")) {
            return new MergeResult(observed, List.of(), List.of());
        }
        MergeEngine engine = new MergeEngine(CompiledPolicy.of(policy));
        Object from = observed == null && desired instanceof Map ? Map.of() : observed;
        Object owned = lastApplied == null ? ABSENT : lastApplied;
        Object target = from == null
                ? engine.replace(PathNode.ROOT, desired, null, ABSENT)
                : engine.mergeNode(PathNode.ROOT, desired, from, owned);
        if (observed == null && engine.ops.isEmpty()) {
            // Nothing to set field by field (an empty spec), yet the resource must come into existence.
            engine.ops.add(PatchOp.set(FieldPath.root(), target));
        }
        return new MergeResult(target, engine.ops, engine.conflicts);
    }

    private Object mergeNode(PathNode path, Object d, Object o, Object l) {
        if (d == o || Trees.deepEquals(d, o, policy.strictTyping())) {
            // Nothing to set, and nothing to prune since o has no field d lacks; see TreeDiffer.compare on cost.
            return o;
        }
        if (d instanceof Map<?, ?> dm && o instanceof Map<?, ?> om) {
            return mergeMaps(path, dm, om, l instanceof Map<?, ?> lm ? lm : null, null);
        }
        if (d instanceof List<?> && o instanceof List<?>) {
            String keyField = policy.mergeKey(path);
            Map<String, Object> dk = keyField == null ? null : KeyedList.index(d, keyField);
            Map<String, Object> ok = dk == null ? null : KeyedList.index(o, keyField);
            if (ok != null) {
                Map<String, Object> lk = l == ABSENT ? null : KeyedList.index(l, keyField);
                return Collections.unmodifiableList(new ArrayList<>(mergeMaps(path, dk, ok, lk, keyField).values()));
            }
        }
        return policy.equal(path, d, o) ? o : replace(path, d, o, l);
    }

    private Object replace(PathNode path, Object d, Object o, Object l) {
        if (l != ABSENT && !policy.equal(path, o, l) && !policy.equal(path, d, l)) {
            conflicts.add(new FieldConflict(path.toFieldPath(), d, o, l));
        }
        ops.add(PatchOp.set(path.toFieldPath(), d));
        return d;
    }

    /**
     * Merges two maps, or two keyed lists indexed by key string when {@code keyField} is set; {@code l} is null when
     * nothing is owned.
     */
    private Map<Object, Object> mergeMaps(PathNode path, Map<?, ?> d, Map<?, ?> o, Map<?, ?> l, String keyField) {
        Map<Object, Object> target = new LinkedHashMap<>(o);
        for (Map.Entry<?, ?> e : d.entrySet()) {
            PathNode child = path.child(e.getKey().toString(), keyField);
            if (policy.ignored(child)) {
                continue;
            }
            if (o.containsKey(e.getKey())) {
                Object owned = l != null && l.containsKey(e.getKey()) ? l.get(e.getKey()) : ABSENT;
                target.put(e.getKey(), mergeNode(child, e.getValue(), o.get(e.getKey()), owned));
            } else {
                ops.add(PatchOp.set(child.toFieldPath(), e.getValue()));
                target.put(e.getKey(), e.getValue());
            }
        }
        for (Object key : o.keySet()) {
            PathNode child = d.containsKey(key) ? null : path.child(key.toString(), keyField);
            if (child == null || policy.ignored(child)) {
                continue;
            }
            if (policy.policy().strict() || (l != null && l.containsKey(key))) {
                ops.add(PatchOp.remove(child.toFieldPath()));
                target.remove(key);
            }
        }
        return Collections.unmodifiableMap(target);
    }
}
