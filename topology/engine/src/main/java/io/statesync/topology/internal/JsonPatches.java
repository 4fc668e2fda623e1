package io.statesync.topology.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 * this document (a path that is not there, a failing {@code test}) is not. A JSON patch applies under
 * {@link Limits}: the operations are counted, and every value it adds or copies is measured (a walk that stops at the
 * budget) before it is placed, so a few {@code copy} operations that double the document cannot allocate past the
 * limit before they are refused ({@link TooLarge}).
 */
public final class JsonPatches {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private JsonPatches() {
    }

    /** Why a patch was refused; {@code malformed} tells a bad patch (400) from one that does not apply here (422). */
    public static class PatchException extends RuntimeException {
        private final boolean malformed;

        public PatchException(boolean malformed, String message) {
            super(message);
            this.malformed = malformed;
        }

        public boolean malformed() {
            return malformed;
        }
    }

    /**
     * What one JSON patch may do: at most {@code maxOperations} operations; the document's JSON bytes before it plus
     * every value it adds or copies at most {@code maxBytes} (as {@link #measure} estimates them), so removing and copying again is charged each time; no
     * value placed deeper than {@code maxDepth} levels (the document's root is level 1).
     */
    public record Limits(long maxBytes, int maxDepth, int maxOperations) {
        public static final Limits NONE = new Limits(Long.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    /** A patch refused for what it would cost: too many operations, or a result too large or too deep. */
    public static final class TooLarge extends PatchException {
        public TooLarge(String message) {
            super(false, message);
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
        return jsonPatch(target, patch, Limits.NONE);
    }

    /** As {@link #jsonPatch(JsonNode, JsonNode)}, refusing with {@link TooLarge} what passes {@code limits}. */
    public static JsonNode jsonPatch(JsonNode target, JsonNode patch, Limits limits) {
        if (patch == null || !patch.isArray()) {
            throw new PatchException(true, "a JSON patch must be an array of operations");
        }
        if (patch.size() > limits.maxOperations()) {
            throw new TooLarge("the patch has " + patch.size() + " operations, more than the limit of "
                + limits.maxOperations());
        }
        JsonNode doc = target == null ? JSON.nullNode() : target.deepCopy();
        Budget budget = new Budget(limits);
        budget.charge(doc, 0, "the document");
        int i = 0;
        for (JsonNode op : patch) {
            doc = applyOne(doc, op, i++, budget);
        }
        return doc;
    }

    /** What a patch has spent of its {@link Limits}: the bytes of the document before it and of every value it added. */
    private static final class Budget {
        private final Limits limits;
        private long spent;

        Budget(Limits limits) {
            this.limits = limits;
        }

        /** Measures {@code value} as placed at {@code level}, refusing before the caller copies or places it. */
        void charge(JsonNode value, int level, String where) {
            long left = limits.maxBytes() == Long.MAX_VALUE ? Long.MAX_VALUE : limits.maxBytes() - spent;
            long[] measured = measure(value, left, limits.maxDepth() - level);
            if (measured[0] > left) {
                throw new TooLarge(where + ": the patched object would pass the limit of " + limits.maxBytes()
                    + " bytes");
            }
            if (measured[1] + level > limits.maxDepth()) {
                throw new TooLarge(where + ": the patched object would be deeper than the limit of "
                    + limits.maxDepth() + " levels");
            }
            spent += measured[0];
        }
    }

    /**
     * The bytes of {@code root} (an estimate close to both its JSON and its stored encoding: strings unescaped, a
     * literal one byte) and its depth, walking iteratively and stopping
     * as soon as the bytes pass {@code maxBytes} or the depth passes {@code maxDepth}, so measuring a hostile value
     * costs no more than the budget it is refused by.
     */
    public static long[] measure(JsonNode root, long maxBytes, int maxDepth) {
        long bytes = 0;
        int depth = 0;
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {root, 1});
        while (!stack.isEmpty() && bytes <= maxBytes && depth <= maxDepth) {
            Object[] top = stack.pop();
            JsonNode n = (JsonNode) top[0];
            int level = (Integer) top[1];
            depth = Math.max(depth, level);
            if (n.isObject()) {
                bytes += 2;
                for (Map.Entry<String, JsonNode> e : n.properties()) {
                    bytes += e.getKey().length() + 4L;
                    stack.push(new Object[] {e.getValue(), level + 1});
                }
            } else if (n.isArray()) {
                bytes += 2 + n.size();
                for (JsonNode c : n) {
                    stack.push(new Object[] {c, level + 1});
                }
            } else {
                bytes += n.isTextual() ? n.textValue().length() + 2L : n.isNumber() ? n.asText().length() + 1L : 1;
            }
        }
        return new long[] {bytes, depth};
    }

    private static JsonNode applyOne(JsonNode doc, JsonNode op, int index, Budget budget) {
        if (!op.isObject() || !op.path("op").isTextual() || !op.path("path").isTextual()) {
            throw new PatchException(true, "operation " + index + " needs a string 'op' and a string 'path'");
        }
        String name = op.get("op").asText();
        List<String> path = pointer(op.get("path").asText(), index);
        String where = "operation " + index + " (" + name + " " + op.get("path").asText() + ")";
        switch (name) {
            case "add":
                return add(doc, path, charged(required(op, "value", index), path, budget, where).deepCopy(), where);
            case "remove":
                return remove(doc, path, where);
            case "replace": {
                JsonNode value = charged(required(op, "value", index), path, budget, where);
                return add(remove(doc, path, where), path, value.deepCopy(), where);
            }
            case "move": {
                List<String> from = pointer(requiredText(op, "from", index), index);
                if (path.size() > from.size() && path.subList(0, from.size()).equals(from)) {
                    throw new PatchException(true, where + ": cannot move a value into one of its own children");
                }
                JsonNode value = get(doc, from, where);
                // The moved value is placed, not copied: it adds no bytes, but may land deeper than it was.
                budget.charge(JSON.nullNode(), path.size() + depthOf(value) - 1, where);
                return add(remove(doc, from, where), path, value, where);
            }
            case "copy": {
                List<String> from = pointer(requiredText(op, "from", index), index);
                JsonNode source = charged(get(doc, from, where), path, budget, where);
                return add(doc, path, source.deepCopy(), where);
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

    /** Charges {@code value} to the budget as placed at {@code path} before anything copies it. */
    private static JsonNode charged(JsonNode value, List<String> path, Budget budget, String where) {
        budget.charge(value, path.size(), where);
        return value;
    }

    private static int depthOf(JsonNode value) {
        return (int) measure(value, Long.MAX_VALUE, Integer.MAX_VALUE)[1];
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

    /** Places {@code value}, which the caller owns (a copy, or the node a move took out), without copying it. */
    private static JsonNode add(JsonNode doc, List<String> path, JsonNode value, String where) {
        if (path.isEmpty()) {
            return value;
        }
        JsonNode parent = get(doc, path.subList(0, path.size() - 1), where);
        String last = path.get(path.size() - 1);
        if (parent.isObject()) {
            ((ObjectNode) parent).set(last, value);
        } else if (parent.isArray()) {
            ArrayNode a = (ArrayNode) parent;
            a.insert(last.equals("-") ? a.size() : arrayIndex(last, a.size(), where), value);
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
