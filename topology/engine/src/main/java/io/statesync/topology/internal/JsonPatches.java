package io.statesync.topology.internal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * RFC 7386 merge patches and RFC 6902 JSON patches over Jackson trees. Neither changes its input. A patch that is
 * not a patch at all is {@link PatchException#malformed() malformed}; one that is well formed but does not apply to
 * this document (a path that is not there, a failing {@code test}) is not.
 */
public final class JsonPatches {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private JsonPatches() {
    }

    /** Why a patch was refused; {@code malformed} tells a bad patch (400) from one that does not apply here (422). */
    public static final class PatchException extends RuntimeException {
        private final boolean malformed;

        public PatchException(boolean malformed, String message) {
            super(message);
            this.malformed = malformed;
        }

        public boolean malformed() {
            return malformed;
        }
    }

    /** RFC 7386: an object patch merges key by key, a null removes, anything else replaces. */
    public static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            return patch == null ? target : patch.deepCopy();
        }
        ObjectNode out = target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : JSON.objectNode();
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            if (e.getValue().isNull()) {
                out.remove(e.getKey());
            } else {
                out.set(e.getKey(), mergePatch(out.get(e.getKey()), e.getValue()));
            }
        }
        return out;
    }

    /** RFC 6902: the operations apply in order to a copy of {@code target}; the first that fails fails the patch. */
    public static JsonNode jsonPatch(JsonNode target, JsonNode patch) {
        if (patch == null || !patch.isArray()) {
            throw new PatchException(true, "a JSON patch must be an array of operations");
        }
        JsonNode doc = target == null ? JSON.nullNode() : target.deepCopy();
        int i = 0;
        for (JsonNode op : patch) {
            doc = applyOne(doc, op, i++);
        }
        return doc;
    }

    private static JsonNode applyOne(JsonNode doc, JsonNode op, int index) {
        if (!op.isObject() || !op.path("op").isTextual() || !op.path("path").isTextual()) {
            throw new PatchException(true, "operation " + index + " needs a string 'op' and a string 'path'");
        }
        String name = op.get("op").asText();
        List<String> path = pointer(op.get("path").asText(), index);
        String where = "operation " + index + " (" + name + " " + op.get("path").asText() + ")";
        switch (name) {
            case "add":
                return add(doc, path, required(op, "value", index), where);
            case "remove":
                return remove(doc, path, where);
            case "replace":
                return add(remove(doc, path, where), path, required(op, "value", index), where);
            case "move": {
                List<String> from = pointer(requiredText(op, "from", index), index);
                if (path.size() > from.size() && path.subList(0, from.size()).equals(from)) {
                    throw new PatchException(true, where + ": cannot move a value into one of its own children");
                }
                JsonNode value = get(doc, from, where);
                return add(remove(doc, from, where), path, value, where);
            }
            case "copy": {
                List<String> from = pointer(requiredText(op, "from", index), index);
                return add(doc, path, get(doc, from, where).deepCopy(), where);
            }
            case "test":
                if (!numericEquals(get(doc, path, where), required(op, "value", index))) {
                    throw new PatchException(false, where + ": the value is not the one the test expects");
                }
                return doc;
            default:
                throw new PatchException(true, "operation " + index + ": unknown op '" + name
                    + "' (add, remove, replace, move, copy, test)");
        }
    }

    private static JsonNode required(JsonNode op, String field, int index) {
        if (!op.has(field)) {
            throw new PatchException(true, "operation " + index + " needs '" + field + "'");
        }
        return op.get(field);
    }

    private static String requiredText(JsonNode op, String field, int index) {
        JsonNode n = required(op, field, index);
        if (!n.isTextual()) {
            throw new PatchException(true, "operation " + index + ": '" + field + "' must be a string");
        }
        return n.asText();
    }

    /** RFC 6901: "" is the whole document; each segment unescapes ~1 to / and ~0 to ~. */
    static List<String> pointer(String text, int index) {
        List<String> out = new ArrayList<>();
        if (text.isEmpty()) {
            return out;
        }
        if (text.charAt(0) != '/') {
            throw new PatchException(true, "operation " + index + ": path '" + text + "' must be empty or start with '/'");
        }
        for (String s : text.substring(1).split("/", -1)) {
            out.add(s.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }

    private static JsonNode get(JsonNode doc, List<String> path, String where) {
        JsonNode n = doc;
        for (String seg : path) {
            n = child(n, seg, where);
        }
        return n;
    }

    private static JsonNode child(JsonNode n, String seg, String where) {
        JsonNode c = null;
        if (n.isObject()) {
            c = n.get(seg);
        } else if (n.isArray()) {
            int i = arrayIndex(seg, n.size() - 1, where);
            c = n.get(i);
        }
        if (c == null) {
            throw new PatchException(false, where + ": the path does not exist");
        }
        return c;
    }

    private static JsonNode add(JsonNode doc, List<String> path, JsonNode value, String where) {
        if (path.isEmpty()) {
            return value.deepCopy();
        }
        JsonNode parent = get(doc, path.subList(0, path.size() - 1), where);
        String last = path.get(path.size() - 1);
        if (parent.isObject()) {
            ((ObjectNode) parent).set(last, value.deepCopy());
        } else if (parent.isArray()) {
            ArrayNode a = (ArrayNode) parent;
            a.insert(last.equals("-") ? a.size() : arrayIndex(last, a.size(), where), value.deepCopy());
        } else {
            throw new PatchException(false, where + ": the parent is neither an object nor an array");
        }
        return doc;
    }

    private static JsonNode remove(JsonNode doc, List<String> path, String where) {
        if (path.isEmpty()) {
            return JSON.nullNode();
        }
        JsonNode parent = get(doc, path.subList(0, path.size() - 1), where);
        String last = path.get(path.size() - 1);
        child(parent, last, where);
        if (parent.isObject()) {
            ((ObjectNode) parent).remove(last);
        } else {
            ((ArrayNode) parent).remove(arrayIndex(last, parent.size() - 1, where));
        }
        return doc;
    }

    /** An array index of RFC 6902: decimal digits without a leading zero, at most {@code max}. */
    private static int arrayIndex(String seg, int max, String where) {
        if (!seg.matches("0|[1-9][0-9]{0,8}")) {
            throw new PatchException(false, where + ": '" + seg + "' is not an array index");
        }
        int i = Integer.parseInt(seg);
        if (i > max) {
            throw new PatchException(false, where + ": index " + i + " is out of bounds");
        }
        return i;
    }

    /** JSON equality as RFC 6902's test defines it: numbers by value, objects regardless of member order. */
    static boolean numericEquals(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!b.has(e.getKey()) || !numericEquals(e.getValue(), b.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!numericEquals(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
