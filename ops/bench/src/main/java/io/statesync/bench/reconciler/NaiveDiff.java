package io.statesync.bench.reconciler;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The baseline: the diff one writes first. It recurses into maps wherever {@code equals} says a subtree differs, so
 * every level re-compares the whole subtree below it; lists are compared whole; 5 and 5.0 differ; no policy.
 */
public final class NaiveDiff {
    private NaiveDiff() {
    }

    public static List<String> diff(Object desired, Object observed) {
        List<String> out = new ArrayList<>();
        diff("", desired, observed, out);
        return out;
    }

    private static void diff(String path, Object d, Object o, List<String> out) {
        if (Objects.equals(d, o)) {
            return;
        }
        if (d instanceof Map<?, ?> dm && o instanceof Map<?, ?> om) {
            Set<Object> keys = new LinkedHashSet<>(dm.keySet());
            keys.addAll(om.keySet());
            for (Object k : keys) {
                diff(path + "." + k, dm.get(k), om.get(k), out);
            }
            return;
        }
        out.add(path);
    }
}
