package io.statesync.schemas;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.Value;

/**
 * Conversions between the recursive Avro {@link Value} and plain Java trees or Jackson {@link JsonNode}s.
 *
 * <p>The Java side uses exactly {@code null}, {@link Boolean}, {@link Long}, {@link Double}, {@link String},
 * {@code List<Object>} and {@code Map<String, Object>} (insertion-ordered). Integers and decimals stay apart:
 * {@code 5} becomes a long and {@code 5.0} a double, so a diff can tell them apart when a kind asks for strict
 * typing, and longs beyond 2^53 never pass through a double.
 */
public final class Values {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Values() {
    }

    /**
     * Whether a Value's content is a scalar as the decoder builds it: null, a Boolean, Long, Double or String. It tests
     * classes only, so walks over decoded trees ask it before any interface test, which costs far more.
     */
    public static boolean isScalar(Object node) {
        return node == null || node instanceof String || node instanceof Long || node instanceof Boolean
            || node instanceof Double;
    }

    /** The Java tree of a Value; a null reference and a Value holding null both give null. */
    public static Object toJava(Value value) {
        Object v = value == null ? null : value.getValue();
        if (isScalar(v)) {
            return v;
        }
        if (v instanceof CharSequence s) {
            return s.toString();
        }
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object item : list) {
                out.add(toJava(asValue(item)));
            }
            return out;
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>(capacity(map.size()));
            map.forEach((k, item) -> out.put(k.toString(), toJava(asValue(item))));
            return out;
        }
        // A Value built by hand may hold an Integer or Float that Avro itself would refuse to write.
        return scalar(v);
    }

    /**
     * The Value of a Java tree. Integer, Short and Byte widen to long, Float to double; a BigInteger within the
     * long range becomes a long and beyond it a double (the only other numeric branch); a BigDecimal becomes a
     * double. A Value or a JsonNode inside the tree is taken as it is.
     *
     * @throws IllegalArgumentException for any other type, a map key that is not a string, or a number a double
     *     cannot hold
     */
    public static Value fromJava(Object o) {
        if (o == null) {
            return new Value(null);
        }
        if (o instanceof Value v) {
            return v;
        }
        if (o instanceof JsonNode node) {
            return fromJson(node);
        }
        if (o instanceof Map<?, ?> map) {
            Map<String, Value> out = new LinkedHashMap<>(capacity(map.size()));
            map.forEach((k, item) -> out.put(key(k), fromJava(item)));
            return new Value(out);
        }
        if (o instanceof Collection<?> items) {
            List<Value> out = new ArrayList<>(items.size());
            for (Object item : items) {
                out.add(fromJava(item));
            }
            return new Value(out);
        }
        return new Value(scalar(o));
    }

    /** The JSON of a Value: a null reference and a Value holding null are both JSON null. */
    public static JsonNode toJson(Value value) {
        Object v = value == null ? null : value.getValue();
        if (v instanceof List<?> list) {
            ArrayNode out = JSON.arrayNode(list.size());
            for (Object item : list) {
                out.add(toJson(asValue(item)));
            }
            return out;
        }
        if (v instanceof Map<?, ?> map) {
            ObjectNode out = JSON.objectNode();
            map.forEach((k, item) -> out.set(k.toString(), toJson(asValue(item))));
            return out;
        }
        return scalarJson(v == null ? null : scalar(v));
    }

    /**
     * The Value of a JSON tree. Integral numbers become longs, or doubles when they do not fit; every other
     * number becomes a double. A missing node is null.
     *
     * @throws IllegalArgumentException for binary and POJO nodes, which have no JSON text form
     */
    public static Value fromJson(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return new Value(null);
        }
        if (node.isObject()) {
            Map<String, Value> out = new LinkedHashMap<>(capacity(node.size()));
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                out.put(field.getKey(), fromJson(field.getValue()));
            }
            return new Value(out);
        }
        if (node.isArray()) {
            List<Value> out = new ArrayList<>(node.size());
            node.forEach(item -> out.add(fromJson(item)));
            return new Value(out);
        }
        if (node.isBoolean()) {
            return new Value(node.booleanValue());
        }
        if (node.isTextual()) {
            return new Value(node.textValue());
        }
        if (node.isNumber()) {
            return new Value(scalar(node.numberValue()));
        }
        throw new IllegalArgumentException("A " + node.getNodeType() + " JSON node has no Value form");
    }

    private static Object scalar(Object o) {
        if (isScalar(o)) {
            return o;
        }
        if (o instanceof Integer || o instanceof Short || o instanceof Byte) {
            return ((Number) o).longValue();
        }
        if (o instanceof Float f) {
            return f.doubleValue();
        }
        if (o instanceof BigInteger big) {
            return big.bitLength() < Long.SIZE ? (Object) big.longValue() : finite(big.doubleValue(), big);
        }
        if (o instanceof BigDecimal dec) {
            return finite(dec.doubleValue(), dec);
        }
        if (o instanceof CharSequence s) {
            return s.toString();
        }
        throw new IllegalArgumentException("No Value form for " + o.getClass().getName() + ": " + o);
    }

    private static JsonNode scalarJson(Object v) {
        if (v == null) {
            return JSON.nullNode();
        }
        if (v instanceof Boolean b) {
            return JSON.booleanNode(b);
        }
        if (v instanceof Long l) {
            return JSON.numberNode(l);
        }
        if (v instanceof Double d) {
            return JSON.numberNode(d);
        }
        return JSON.textNode((String) v);
    }

    /**
     * True only when {@code a.equals(b)}, but cheaper where two trees decoded from equal bytes are compared: their maps
     * iterate in the same order, so entries are compared pairwise instead of looking each key up in the other map. At
     * the first pair whose keys differ, that map falls back to {@link Map#equals}.
     */
    public static boolean sameTree(Value a, Value b) {
        if (a == b) {
            return true;
        }
        return a != null && b != null && sameNode(a.getValue(), b.getValue());
    }

    private static boolean sameNode(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a instanceof Value va) {
            return b instanceof Value vb && sameNode(va.getValue(), vb.getValue());
        }
        if (a instanceof Map<?, ?> ma) {
            return b instanceof Map<?, ?> mb && ma.size() == mb.size() && sameEntries(ma, mb);
        }
        if (a instanceof List<?> la) {
            return b instanceof List<?> lb && la.size() == lb.size() && sameItems(la, lb);
        }
        return a != null && a.equals(b);
    }

    private static boolean sameEntries(Map<?, ?> a, Map<?, ?> b) {
        Iterator<? extends Map.Entry<?, ?>> ib = b.entrySet().iterator();
        for (Map.Entry<?, ?> ea : a.entrySet()) {
            Map.Entry<?, ?> eb = ib.next();
            if (!ea.getKey().equals(eb.getKey())) {
                return a.equals(b);
            }
            if (!sameNode(ea.getValue(), eb.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameItems(List<?> a, List<?> b) {
        Iterator<?> ib = b.iterator();
        for (Object item : a) {
            if (!sameNode(item, ib.next())) {
                return false;
            }
        }
        return true;
    }

    private static Value asValue(Object item) {
        if (item == null || item instanceof Value) {
            return (Value) item;
        }
        throw new IllegalArgumentException("A list or map inside a Value must hold Values, not "
            + item.getClass().getName());
    }

    private static String key(Object k) {
        if (k instanceof CharSequence s) {
            return s.toString();
        }
        throw new IllegalArgumentException("Map keys must be strings, not " + (k == null ? "null" : k.getClass().getName()));
    }

    private static double finite(double d, Object source) {
        if (Double.isInfinite(d)) {
            throw new IllegalArgumentException("Number out of the double range: " + source);
        }
        return d;
    }

    private static int capacity(int size) {
        return (int) (size / 0.75f) + 1;
    }
}
