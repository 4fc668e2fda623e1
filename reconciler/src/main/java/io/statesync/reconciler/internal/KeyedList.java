package io.statesync.reconciler.internal;

import io.statesync.reconciler.Trees;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A list of maps indexed by a key field, in list order. */
public final class KeyedList {
    private KeyedList() {
    }

    /**
     * Indexes {@code list} by the {@link Trees#keyString} of each item's {@code keyField}. Null when the list cannot
     * be merged by key (an item that is not a map, has no scalar key, or repeats a key); such a list is then atomic.
     */
    public static Map<String, Object> index(Object list, String keyField) {
        if (!(list instanceof List<?> items)) {
            return null;
        }
        Map<String, Object> index = new LinkedHashMap<>(Math.max(4, items.size() * 4 / 3 + 1));
        for (Object item : items) {
            String key = item instanceof Map<?, ?> m ? Trees.keyString(m.get(keyField)) : null;
            if (key == null || index.put(key, item) != null) {
                return null;
            }
        }
        return index;
    }
}
