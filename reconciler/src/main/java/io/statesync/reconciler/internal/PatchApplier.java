package io.statesync.reconciler.internal;

import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.Op;
import io.statesync.reconciler.PatchOp;
import io.statesync.reconciler.Trees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine behind {@link io.statesync.reconciler.Patches}: one mutable deep copy, every op applied in place, then one
 * freeze, so a patch of many ops on a large list costs two copies rather than one per op.
 */
public final class PatchApplier {
    private PatchApplier() {
    }

    public static Object apply(Object observed, List<PatchOp> patch) {
        if (patch.isEmpty()) {
            return Trees.normalize(observed);
        }
        Object root = mutableCopy(observed);
        for (PatchOp op : patch) {
            root = applyOne(root, op);
        }
        return Trees.normalize(root);
    }

    private static Object applyOne(Object root, PatchOp op) {
        List<String> segments = op.path().segments();
        if (segments.isEmpty()) {
            return op.op() == Op.SET ? mutableCopy(op.value()) : null;
        }
        if (!fits(root, segments.get(0))) {
            if (op.op() == Op.REMOVE) {
                return root;
            }
            root = containerFor(segments.get(0));
        }
        Object parent = root;
        for (int i = 0; i < segments.size() - 1; i++) {
            Object child = TreeNav.child(parent, segments.get(i));
            if (!fits(child, segments.get(i + 1))) {
                if (op.op() == Op.REMOVE) {
                    return root;
                }
                child = containerFor(segments.get(i + 1));
                put(parent, segments.get(i), child);
            }
            parent = child;
        }
        String last = segments.get(segments.size() - 1);
        if (op.op() == Op.SET) {
            put(parent, last, mutableCopy(op.value()));
        } else {
            remove(parent, last);
        }
        return root;
    }

    /** Whether {@code node} is the container {@code segment} addresses: a list for brackets, else a map. */
    private static boolean fits(Object node, String segment) {
        return FieldPath.isBracketSegment(segment) ? node instanceof List : node instanceof Map;
    }

    private static Object containerFor(String segment) {
        return FieldPath.isBracketSegment(segment) ? new ArrayList<>() : new LinkedHashMap<>();
    }

    @SuppressWarnings("unchecked")
    private static void put(Object parent, String segment, Object value) {
        if (parent instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).put(segment, value);
            return;
        }
        List<Object> list = (List<Object>) parent;
        int index = TreeNav.indexOf(list, segment);
        if (index >= 0) {
            list.set(index, withKey(segment, value));
        } else if (isKeySegment(segment)) {
            list.add(withKey(segment, value));
        } else if (TreeNav.parseIndex(inner(segment)) == list.size()) {
            list.add(value);
        } else {
            throw new IllegalArgumentException("no list position " + segment + " in a list of " + list.size());
        }
    }

    /** A new keyed item created on the way down gets its key, so that it can be found again. */
    @SuppressWarnings("unchecked")
    private static Object withKey(String segment, Object value) {
        if (isKeySegment(segment) && value instanceof Map<?, ?> map && map.isEmpty()) {
            String inner = inner(segment);
            int eq = inner.indexOf('=');
            ((Map<String, Object>) map).put(inner.substring(0, eq), inner.substring(eq + 1));
        }
        return value;
    }

    private static void remove(Object parent, String segment) {
        if (parent instanceof Map<?, ?> map) {
            map.remove(segment);
            return;
        }
        List<?> list = (List<?>) parent;
        int index = TreeNav.indexOf(list, segment);
        if (index >= 0) {
            list.remove(index);
        }
    }

    private static boolean isKeySegment(String segment) {
        return inner(segment).indexOf('=') >= 0;
    }

    private static String inner(String segment) {
        return segment.substring(1, segment.length() - 1);
    }

    /** A deep copy in mutable java.util collections. */
    static Object mutableCopy(Object tree) {
        if (tree instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, map.size() * 4 / 3 + 1));
            map.forEach((k, v) -> copy.put(k.toString(), mutableCopy(v)));
            return copy;
        }
        if (tree instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(mutableCopy(item)));
            return copy;
        }
        return Trees.normalize(tree);
    }
}
