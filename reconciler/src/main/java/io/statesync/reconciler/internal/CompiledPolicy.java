package io.statesync.reconciler.internal;

import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.Trees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A policy with its path patterns parsed once: kind policies change rarely and are read on every reconcile, so
 * parsing them per diff would cost more than the diff of a small spec.
 */
public final class CompiledPolicy {
    private static final int CACHE_LIMIT = 256;
    private static final Map<ReconcilePolicy, CompiledPolicy> CACHE = new ConcurrentHashMap<>();
    /** Most calls in a row use the same policy instance; an identity check spares hashing the whole record. */
    private static volatile CompiledPolicy lastUsed;

    private final ReconcilePolicy policy;
    private final List<String[]> ignored;
    private final int deepestIgnore;
    private final Map<String[], String> mergeKeys;

    private CompiledPolicy(ReconcilePolicy policy) {
        this.policy = policy;
        this.ignored = new ArrayList<>();
        int deepest = -1;
        for (String p : policy.ignoredPaths()) {
            String[] segments = FieldPath.parse(p).segments().toArray(String[]::new);
            ignored.add(segments);
            deepest = Math.max(deepest, segments.length);
        }
        this.deepestIgnore = deepest;
        this.mergeKeys = new LinkedHashMap<>();
        policy.listMergeKeys().forEach((path, key) ->
                mergeKeys.put(FieldPath.parse(path).segments().toArray(String[]::new), key));
    }

    public static CompiledPolicy of(ReconcilePolicy policy) {
        CompiledPolicy last = lastUsed;
        if (last != null && last.policy == policy) {
            return last;
        }
        CompiledPolicy cached = CACHE.get(policy);
        if (cached != null) {
            lastUsed = cached;
            return cached;
        }
        if (CACHE.size() >= CACHE_LIMIT) {
            CACHE.clear();
        }
        CompiledPolicy compiled = CACHE.computeIfAbsent(policy, CompiledPolicy::new);
        lastUsed = compiled;
        return compiled;
    }

    public ReconcilePolicy policy() {
        return policy;
    }

    public boolean strictTyping() {
        return policy.strictTyping();
    }

    public boolean ignored(PathNode path) {
        if (path.depth() > deepestIgnore) {
            return false;
        }
        for (String[] pattern : ignored) {
            if (path.matches(pattern)) {
                return true;
            }
        }
        return false;
    }

    /** The merge key field of the list at {@code path}, or null when the list is atomic. */
    public String mergeKey(PathNode path) {
        for (Map.Entry<String[], String> e : mergeKeys.entrySet()) {
            if (path.matches(e.getKey())) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Deep equality that skips ignored paths below {@code path}; lists compare position by position. */
    public boolean equal(PathNode path, Object a, Object b) {
        if (path.depth() >= deepestIgnore) {
            return Trees.deepEquals(a, b, policy.strictTyping());
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            return mapsEqual(path, x, y);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            return listsEqual(path, x, y);
        }
        return Trees.deepEquals(a, b, policy.strictTyping());
    }

    private boolean mapsEqual(PathNode path, Map<?, ?> x, Map<?, ?> y) {
        for (Map.Entry<?, ?> e : x.entrySet()) {
            PathNode child = path.child(e.getKey().toString());
            if (!ignored(child) && (!y.containsKey(e.getKey()) || !equal(child, e.getValue(), y.get(e.getKey())))) {
                return false;
            }
        }
        for (Object key : y.keySet()) {
            if (!x.containsKey(key) && !ignored(path.child(key.toString()))) {
                return false;
            }
        }
        return true;
    }

    private boolean listsEqual(PathNode path, List<?> x, List<?> y) {
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            PathNode child = path.child(FieldPath.indexSegment(i));
            if (!ignored(child) && !equal(child, x.get(i), y.get(i))) {
                return false;
            }
        }
        return true;
    }
}
