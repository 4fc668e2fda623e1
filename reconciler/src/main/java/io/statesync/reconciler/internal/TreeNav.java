package io.statesync.reconciler.internal;

import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.Trees;
import java.util.List;
import java.util.Map;

/** Reads along a path; bracket segments address keyed-list items ({@code [k=v]}) or positions ({@code [3]}). */
public final class TreeNav {
    private TreeNav() {
    }

    public static Object get(Object tree, List<String> segments) {
        Object node = tree;
        for (String segment : segments) {
            node = child(node, segment);
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    static Object child(Object node, String segment) {
        if (node instanceof Map<?, ?> map) {
            return map.get(segment);
        }
        if (node instanceof List<?> list && FieldPath.isBracketSegment(segment)) {
            int index = indexOf(list, segment);
            return index < 0 ? null : list.get(index);
        }
        return null;
    }

    /** The position a bracket segment addresses in {@code list}, or -1 when no item matches. */
    public static int indexOf(List<?> list, String segment) {
        String inner = segment.substring(1, segment.length() - 1);
        int eq = inner.indexOf('=');
        if (eq < 0) {
            int index = parseIndex(inner);
            return index >= 0 && index < list.size() ? index : -1;
        }
        String field = inner.substring(0, eq);
        String value = inner.substring(eq + 1);
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) instanceof Map<?, ?> item && value.equals(Trees.keyString(item.get(field)))) {
                return i;
            }
        }
        return -1;
    }

    /** The position in an index segment's inside, or -1 if it is not a non-negative integer. */
    public static int parseIndex(String inner) {
        if (inner.isEmpty() || inner.length() > 9) {
            return -1;
        }
        for (int i = 0; i < inner.length(); i++) {
            if (!Character.isDigit(inner.charAt(i))) {
                return -1;
            }
        }
        return Integer.parseInt(inner);
    }
}
