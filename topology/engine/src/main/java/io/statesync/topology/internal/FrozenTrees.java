package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;

import io.statesync.avro.Value;
import io.statesync.reconciler.CompactMap;
import io.statesync.reconciler.Trees;
import io.statesync.schemas.Values;

/**
 * A {@link Value} straight into the reconciler's normalised form (unmodifiable maps and lists, String keys and
 * strings, Long and Double numbers), in one pass: converting to a plain Java tree first and then normalising would build
 * every tree twice. The reconciler's builders mark the result as normalised, so normalising it again (every
 * PlanInput and ObservedView does) costs nothing instead of a walk.
 */
final class FrozenTrees {

    private FrozenTrees() {
    }

    /**
     * {@link #of} for a tree's root, kept on the root's compact map ({@link CompactMap#derived()}): admission freezes a
     * write's spec, and the reconcile that follows, and each later one while the state stays decoded, freeze the same
     * instance again. Only roots keep theirs, so a tree holds one frozen copy, not one per subtree.
     */
    static Object ofRoot(Value v) {
        if (!(v.getValue() instanceof CompactMap<?, ?> root)) {
            return of(v);
        }
        Object kept = root.derived();
        if (kept == null) {
            kept = of(v);
            root.derived(kept);
        }
        return kept;
    }

    static Object of(Value v) {
        Object node = v == null ? null : v.getValue();
        if (node == null || node instanceof Boolean || node instanceof Long || node instanceof Double
            || node instanceof String) {
            return node;
        }
        if (node instanceof CharSequence s) {
            return s.toString();
        }
        if (node instanceof List<?> items) {
            Trees.ListBuilder out = Trees.listBuilder(items.size());
            for (Object item : items) {
                out.add(of(asValue(item)));
            }
            return out.build();
        }
        if (node instanceof CompactMap<?, ?> entries) {
            return Trees.mapOf(entries, FrozenTrees::ofItem);
        }
        if (node instanceof Map<?, ?> entries) {
            Trees.MapBuilder out = Trees.mapBuilder(entries.size());
            for (Map.Entry<?, ?> e : entries.entrySet()) {
                out.put(e.getKey().toString(), of(asValue(e.getValue())));
            }
            return out.build();
        }
        // A hand-built Value may hold an Integer or a Float: the general path widens it.
        return Trees.normalize(Values.toJava(v));
    }

    private static Object ofItem(Object item) {
        return of(asValue(item));
    }

    private static Value asValue(Object item) {
        if (item == null || item instanceof Value) {
            return (Value) item;
        }
        throw new IllegalArgumentException("A list or map inside a Value must hold Values, not " + item.getClass().getName());
    }
}
