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

    static Object of(Value v) {
        Object node = v == null ? null : v.getValue();
        if (Values.isScalar(node)) {
            return node;
        }
        // Compact maps, which decoded trees hold, are told apart by class before any interface is tested.
        if (node instanceof CompactMap<?, ?> entries) {
            return Trees.mapOf(entries, FrozenTrees::ofItem);
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
