package io.statesync.reconciler.fields;

import io.statesync.reconciler.fields.internal.GoText;
import io.statesync.reconciler.fields.internal.JsonCursor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' FieldsV1 encoding of a field set, byte for byte as the apiserver writes it: one JSON object per level,
 * keyed by {@code f:<field>}, {@code k:<key JSON>}, {@code v:<value JSON>} or {@code i:<index>} in the set's order,
 * {@code {}} for a member, and a {@code "."} entry first when an element is a member and has children as well.
 */
public final class FieldsV1 {
    /** Levels of nesting that {@link #decode} follows; a field set deeper than this is refused, not followed. */
    public static final int MAX_DEPTH = 64;

    private FieldsV1() {
    }

    public static String encode(FieldSet set) {
        StringBuilder out = new StringBuilder("{");
        emit(set, false, out);
        return out.append('}').toString();
    }

    private static void emit(FieldSet set, boolean self, StringBuilder out) {
        List<PathElement> members = set.members();
        List<PathElement> parents = set.childElements();
        boolean first = true;
        if (self) {
            out.append("\".\":{}");
            first = false;
        }
        int m = 0;
        int c = 0;
        while (m < members.size() || c < parents.size()) {
            int order = m == members.size() ? 1 : c == parents.size() ? -1 : members.get(m).compareTo(parents.get(c));
            out.append(first ? "" : ",");
            first = false;
            PathElement element = order <= 0 ? members.get(m) : parents.get(c);
            GoText.jsonString(serialize(element), out);
            out.append(':');
            if (order < 0) {
                out.append("{}");
            } else {
                out.append('{');
                emit(set.child(element), order == 0, out);
                out.append('}');
            }
            m += order <= 0 ? 1 : 0;
            c += order >= 0 ? 1 : 0;
        }
    }

    /** The key by which FieldsV1 names an element: {@code f:name}, {@code k:{"name":"a"}}, {@code v:"x"}, {@code i:3}. */
    public static String serialize(PathElement element) {
        StringBuilder out = new StringBuilder();
        if (element instanceof PathElement.Field f) {
            out.append("f:").append(f.name());
        } else if (element instanceof PathElement.Key k) {
            out.append("k:{");
            boolean first = true;
            for (Map.Entry<String, Object> e : k.fields().entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                GoText.jsonString(e.getKey(), out);
                out.append(':');
                GoText.json(e.getValue(), out);
            }
            out.append('}');
        } else if (element instanceof PathElement.Value v) {
            out.append("v:");
            GoText.json(v.value(), out);
        } else {
            out.append("i:").append(((PathElement.Index) element).index());
        }
        return out.toString();
    }

    /**
     * Reads a FieldsV1 object. Keys of an unknown kind are skipped with what is under them, as the apiserver does.
     *
     * @throws IllegalArgumentException for anything that is not a well-formed FieldsV1 object, or that nests deeper
     *     than {@link #MAX_DEPTH} levels
     */
    public static FieldSet decode(String json) {
        if (json == null) {
            throw new IllegalArgumentException("fieldsV1: no text");
        }
        JsonCursor in = new JsonCursor(json, MAX_DEPTH);
        try {
            if (in.peek() != '{') {
                throw in.error("expected an object");
            }
            FieldSetBuilder root = new FieldSetBuilder();
            readLevel(in, root, new ArrayList<>(), 1);
            in.expectEnd();
            return root.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fieldsV1: " + e.getMessage(), e);
        }
    }

    /** Reads one level into {@code out} below {@code prefix}; answers whether the level's own element is a member. */
    private static boolean readLevel(JsonCursor in, FieldSetBuilder out, List<PathElement> prefix, int depth) {
        in.checkDepth(depth);
        if (in.acceptNull()) {
            return true;
        }
        in.expect('{');
        boolean self = false;
        boolean any = false;
        if (!in.accept('}')) {
            do {
                String key = in.readString();
                in.expect(':');
                if (key.equals(".")) {
                    in.skipValue(depth + 1);
                    self = true;
                    continue;
                }
                PathElement element = deserialize(key);
                if (element == null) {
                    in.skipValue(depth + 1);
                    continue;
                }
                any = true;
                readChild(in, out, prefix, element, depth);
            } while (in.accept(','));
            in.expect('}');
        }
        return self || !any;
    }

    private static void readChild(JsonCursor in, FieldSetBuilder out, List<PathElement> prefix, PathElement element,
            int depth) {
        if (in.peek() != '{' && in.peek() != 'n') {
            throw in.error("expected an object for " + FieldSet.pathString(List.of(element)));
        }
        prefix.add(element);
        if (readLevel(in, out, prefix, depth + 1)) {
            out.insert(prefix);
        }
        prefix.remove(prefix.size() - 1);
    }

    /** The element a key names; null for a kind this encoding does not know (skipped, as the apiserver does). */
    public static PathElement deserialize(String key) {
        if (key.length() < 2) {
            throw new IllegalArgumentException("key must be at least 2 characters: " + GoText.quote(key));
        }
        if (key.charAt(1) != ':') {
            throw new IllegalArgumentException("missing colon: " + GoText.quote(key));
        }
        String body = key.substring(2);
        return switch (key.charAt(0)) {
            case 'f' -> new PathElement.Field(body);
            case 'v' -> new PathElement.Value(scalar(body, key));
            case 'k' -> new PathElement.Key(keyFields(body, key));
            case 'i' -> new PathElement.Index(index(body, key));
            default -> null;
        };
    }

    private static Object scalar(String body, String key) {
        JsonCursor in = new JsonCursor(body, 1);
        Object value = in.readScalar();
        in.expectEnd();
        if (value == null) {
            throw new IllegalArgumentException("a set item cannot be null: " + GoText.quote(key));
        }
        return value;
    }

    private static Map<String, Object> keyFields(String body, String key) {
        JsonCursor in = new JsonCursor(body, 1);
        in.expect('{');
        Map<String, Object> fields = new LinkedHashMap<>();
        if (!in.accept('}')) {
            do {
                String name = in.readString();
                in.expect(':');
                Object value = in.readScalar();
                if (value == null) {
                    throw new IllegalArgumentException("a key field cannot be null: " + GoText.quote(key));
                }
                fields.put(name, value);
            } while (in.accept(','));
            in.expect('}');
        }
        in.expectEnd();
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one field: " + GoText.quote(key));
        }
        return fields;
    }

    private static int index(String body, String key) {
        try {
            return Integer.parseInt(body);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an index: " + GoText.quote(key), e);
        }
    }
}
