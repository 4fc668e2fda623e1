package io.statesync.bench.reconciler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fixture trees, built the way the topology hands them over: immutable, insertion-ordered java.util maps. */
final class Specs {
    private Specs() {
    }

    /**
     * A 50-field spec: 10 top-level scalars and 4 nested sections of 10 scalars each. {@code differences} of the
     * leaves (spread over the sections) hold another value.
     */
    static Map<String, Object> fiftyFields(int differences) {
        Map<String, Object> spec = new LinkedHashMap<>();
        int leaf = 0;
        for (int i = 0; i < 10; i++, leaf++) {
            spec.put("field" + i, value(leaf, differences));
        }
        for (String section : List.of("container", "resources", "env", "probe")) {
            Map<String, Object> nested = new LinkedHashMap<>();
            for (int i = 0; i < 10; i++, leaf++) {
                nested.put(section + "Key" + i, value(leaf, differences));
            }
            spec.put(section, Collections.unmodifiableMap(nested));
        }
        return Collections.unmodifiableMap(spec);
    }

    /** Every fifth leaf differs first, so that differences land in different sections. */
    private static Object value(int leaf, int differences) {
        int rank = (leaf % 5) * 10 + leaf / 5;
        boolean differs = rank < differences;
        return switch (leaf % 3) {
            case 0 -> (long) leaf + (differs ? 1000 : 0);
            case 1 -> "value-" + leaf + (differs ? "-changed" : "");
            default -> leaf % 2 == 0 ^ differs;
        };
    }

    /** {@code {"items": [ {name, image, port, env:{...}} x n ]}} with item {@code changed} (or none if -1) altered. */
    static Map<String, Object> keyedList(int n, int changed) {
        List<Object> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("name", "item-" + i);
            item.put("image", "nginx:1." + (i == changed ? 99 : 20));
            item.put("port", (long) (8000 + i));
            item.put("env", Collections.unmodifiableMap(new LinkedHashMap<>(Map.of("ENV", "production"))));
            items.add(Collections.unmodifiableMap(item));
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("items", Collections.unmodifiableList(items));
        return Collections.unmodifiableMap(spec);
    }
}
