package io.statesync.topology.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Kubernetes' strategic merge patch, as kubectl writes it for kinds of Kubernetes' own groups: a JSON merge patch
 * whose lists merge item by item where the patch says so. The server declares no patch strategies, so a list merges
 * only where the patch itself names its strategy, as kubectl's three-way patches do:
 * <ul>
 *   <li>{@code $setElementOrder/<list>} beside a list: its items are merged by the key its entries carry (a map list,
 *   each entry the merge key and its value) or by value (a primitive list), and end in that order, the stored items
 *   it does not name after them in their order;</li>
 *   <li>an item with {@code $patch: delete} removes the stored item with its merge key;</li>
 *   <li>{@code $deleteFromPrimitiveList/<list>} removes values from a primitive list;</li>
 *   <li>{@code $patch: replace} in a map replaces the map, {@code $patch: delete} removes it, and
 *   {@code $retainKeys} keeps only the keys it lists.</li>
 * </ul>
 * Every other list is replaced whole, as in a merge patch, and a null removes a key.
 */
public final class StrategicMergePatch {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String ORDER = "$setElementOrder/";
    private static final String DELETE_PRIMITIVES = "$deleteFromPrimitiveList/";

    private StrategicMergePatch() {
    }

    /** {@code target} with {@code patch} applied; neither is changed. */
    public static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            throw new JsonPatches.PatchException(true, "a strategic merge patch must be a JSON object");
        }
        ObjectNode result = mergeMap(target != null && target.isObject() ? (ObjectNode) target : JSON.objectNode(), (ObjectNode) patch);
        return result == null ? JSON.objectNode() : result;
    }

    /** The merged map, or null when the patch deletes it. */
    private static ObjectNode mergeMap(ObjectNode target, ObjectNode patch) {
        String directive = patch.path(PATCH).asText("");
        if (directive.equals("delete")) {
            return null;
        }
        ObjectNode out = directive.equals("replace") ? JSON.objectNode() : target.deepCopy();
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.startsWith("$")) {
                continue;
            }
            if (value.isNull()) {
                out.remove(key);
            } else if (value.isObject()) {
                ObjectNode merged = mergeMap(out.get(key) instanceof ObjectNode o ? o : JSON.objectNode(), (ObjectNode) value);
                if (merged == null) {
                    out.remove(key);
                } else {
                    out.set(key, merged);
                }
            } else if (value.isArray() && mergesList(patch, key, (ArrayNode) value)) {
                out.set(key, mergeList(out.get(key) instanceof ArrayNode a ? a : JSON.arrayNode(), (ArrayNode) value,
                    patch.get(ORDER + key), patch.get(DELETE_PRIMITIVES + key)));
            } else {
                out.set(key, value.deepCopy());
            }
        }
        listDirectivesWithoutList(patch, out);
        retainKeys(patch, out);
        return out;
    }

    /** A list merges when the patch names an order or deletions for it, or an item of it carries a directive. */
    private static boolean mergesList(ObjectNode patch, String key, ArrayNode value) {
        if (patch.has(ORDER + key) || patch.has(DELETE_PRIMITIVES + key)) {
            return true;
        }
        for (JsonNode item : value) {
            if (item.has(PATCH)) {
                return true;
            }
        }
        return false;
    }

    /** An order or deletions for a list the patch does not otherwise change. */
    private static void listDirectivesWithoutList(ObjectNode patch, ObjectNode out) {
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String key = e.getKey();
            String list = key.startsWith(ORDER) ? key.substring(ORDER.length())
                : key.startsWith(DELETE_PRIMITIVES) ? key.substring(DELETE_PRIMITIVES.length()) : null;
            if (list != null && !patch.has(list) && out.get(list) instanceof ArrayNode stored) {
                out.set(list, mergeList(stored, JSON.arrayNode(), patch.get(ORDER + list), patch.get(DELETE_PRIMITIVES + list)));
            }
        }
    }

    private static void retainKeys(ObjectNode patch, ObjectNode out) {
        if (patch.get(RETAIN_KEYS) instanceof ArrayNode keep) {
            List<String> kept = new ArrayList<>();
            keep.forEach(k -> kept.add(k.asText()));
            out.retain(kept);
        }
    }

    private static ArrayNode mergeList(ArrayNode stored, ArrayNode patch, JsonNode order, JsonNode deletions) {
        String mergeKey = mergeKey(order, patch);
        Map<JsonNode, JsonNode> byKey = new LinkedHashMap<>();
        for (JsonNode item : stored) {
            byKey.put(identity(item, mergeKey), item.deepCopy());
        }
        if (deletions instanceof ArrayNode gone) {
            gone.forEach(byKey::remove);
        }
        for (JsonNode item : patch) {
            JsonNode id = identity(item, mergeKey);
            if (item.isObject() && "delete".equals(item.path(PATCH).asText(""))) {
                byKey.remove(id);
            } else if (item.isObject() && byKey.get(id) instanceof ObjectNode old) {
                byKey.put(id, mergeMap(old, (ObjectNode) item));
            } else {
                byKey.put(id, item.isObject() ? mergeMap(JSON.objectNode(), (ObjectNode) item) : item.deepCopy());
            }
        }
        return ordered(byKey, order, mergeKey);
    }

    /** The items the order names, in its order, then the others in theirs. */
    private static ArrayNode ordered(Map<JsonNode, JsonNode> byKey, JsonNode order, String mergeKey) {
        ArrayNode out = JSON.arrayNode();
        if (order instanceof ArrayNode named) {
            for (JsonNode entry : named) {
                JsonNode item = byKey.remove(identity(entry, mergeKey));
                if (item != null) {
                    out.add(item);
                }
            }
        }
        byKey.values().forEach(out::add);
        return out;
    }

    /**
     * The merge key of a map list: the one field of the order's entries, else the one field besides {@code $patch} of
     * an item that carries a directive; null for a primitive list, whose items are their own key.
     */
    private static String mergeKey(JsonNode order, ArrayNode patch) {
        if (order instanceof ArrayNode entries) {
            for (JsonNode e : entries) {
                if (e.isObject() && e.size() == 1) {
                    return e.fieldNames().next();
                }
            }
        }
        for (JsonNode item : patch) {
            if (item.isObject() && item.has(PATCH)) {
                for (var it = item.fieldNames(); it.hasNext(); ) {
                    String f = it.next();
                    if (!f.equals(PATCH)) {
                        return f;
                    }
                }
            }
        }
        return null;
    }

    private static JsonNode identity(JsonNode item, String mergeKey) {
        return mergeKey == null || !item.isObject() ? item : item.path(mergeKey);
    }
}
