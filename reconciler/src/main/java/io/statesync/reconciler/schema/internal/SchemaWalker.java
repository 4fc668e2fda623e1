package io.statesync.reconciler.schema.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.statesync.reconciler.ValidationRules;
import io.statesync.reconciler.schema.FieldError;

/**
 * The three passes of a write through a structural schema, in the apiserver's order: prune, default, validate. Each
 * pass walks the value and the schema together; values are JSON trees (maps, lists, strings, numbers, booleans,
 * null), changed in place by the first two passes.
 */
public final class SchemaWalker {

    private static final Set<String> EMBEDDED_FIELDS = Set.of("apiVersion", "kind", "metadata");
    /**
     * Rule evaluations this write may spend, each bounded by CEL's own cost limit: a rule on the items of a long list
     * runs once per item, so without a budget per write one definition could make every write of its kind expensive.
     */
    private final int maxRuleEvaluations;
    private final long maxPatternSteps;
    private int evaluations;

    public SchemaWalker(int maxRuleEvaluations, long maxPatternSteps) {
        this.maxRuleEvaluations = maxRuleEvaluations;
        this.maxPatternSteps = maxPatternSteps;
    }

    /**
     * Removes the fields the schema does not know, unless a node preserves unknown fields; each removed field's path is
     * added to {@code removed} when it is not null.
     */
    public void prune(SchemaNode node, Object value, String path, List<String> removed) {
        if (node == null || value == null) {
            return;
        }
        if (value instanceof Map<?, ?> m) {
            for (Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<?, ?> e = it.next();
                String key = (String) e.getKey();
                SchemaNode child = node.property(key);
                if (child != null) {
                    prune(child, e.getValue(), node.properties().containsKey(key) ? child(path, key) : path + "[" + key + "]",
                        removed);
                } else if (!node.preserveUnknownFields() && !node.additionalPropertiesAllowed()
                    && !(node.embeddedResource() && EMBEDDED_FIELDS.contains(key))) {
                    it.remove();
                    if (removed != null) {
                        removed.add(child(path, key));
                    }
                }
            }
        } else if (value instanceof List<?> l && node.items() != null) {
            for (int i = 0; i < l.size(); i++) {
                prune(node.items(), l.get(i), path + "[" + i + "]", removed);
            }
        }
    }

    /**
     * Applies defaults: an absent property with a default gets a copy of it, itself defaulted; a null that the schema
     * does not allow is dropped, or replaced by the default. Returns the value (the same object unless it was null).
     */
    @SuppressWarnings("unchecked")
    public Object applyDefaults(SchemaNode node, Object value) {
        if (node == null || value == null) {
            return value;
        }
        if (value instanceof Map<?, ?> raw) {
            Map<String, Object> m = (Map<String, Object>) raw;
            for (Map.Entry<String, SchemaNode> p : node.properties().entrySet()) {
                SchemaNode child = p.getValue();
                Object v = m.get(p.getKey());
                if (v == null && !(m.containsKey(p.getKey()) && child.nullable())) {
                    if (child.defaultValue() != null) {
                        m.put(p.getKey(), applyDefaults(child, copy(child.defaultValue())));
                    } else {
                        m.remove(p.getKey());
                    }
                }
            }
            for (Map.Entry<String, Object> e : m.entrySet()) {
                e.setValue(applyDefaults(node.property(e.getKey()), e.getValue()));
            }
        } else if (value instanceof List<?> raw && node.items() != null) {
            List<Object> l = (List<Object>) raw;
            for (int i = 0; i < l.size(); i++) {
                l.set(i, applyDefaults(node.items(), l.get(i)));
            }
        }
        return value;
    }

    /** Adds to {@code errors} every way {@code value} fails {@code node}; {@code old} is the stored value, or null. */
    public void validate(SchemaNode node, Object value, Object old, String path, List<FieldError> errors, boolean root) {
        if (node == null) {
            return;
        }
        if (value == null) {
            if (!node.nullable() && !root) {
                errors.add(FieldError.invalid(path, "null", path + " in body must be of type " + typeName(node) + ": \"null\""));
            }
            return;
        }
        if (!hasType(node, value)) {
            errors.add(FieldError.invalid(path, value, path + " in body must be of type " + typeName(node) + ": \""
                + jsonType(value) + "\""));
            return;
        }
        if (!node.enumValues().isEmpty() && !enumContains(node.enumValues(), value)) {
            errors.add(new FieldError(path, "FieldValueNotSupported", "Unsupported value: " + shown(value)
                + ": supported values: " + supported(node.enumValues())));
        }
        if (value instanceof String s) {
            Formats.validateString(node, s, path, errors, maxPatternSteps);
        } else if (value instanceof Number n) {
            validateNumber(node, n, path, errors);
        } else if (value instanceof List<?> l) {
            validateList(node, l, old instanceof List<?> ol ? ol : null, path, errors);
        } else if (value instanceof Map<?, ?> m) {
            validateObject(node, m, old instanceof Map<?, ?> om ? om : null, path, errors);
        }
        rules(node, value, old, path, errors);
    }

    private void validateObject(SchemaNode node, Map<?, ?> m, Map<?, ?> old, String path, List<FieldError> errors) {
        for (String r : node.required()) {
            if (!m.containsKey(r)) {
                errors.add(FieldError.required(child(path, r)));
            }
        }
        if (node.minProperties() != null && m.size() < node.minProperties()) {
            errors.add(FieldError.invalid(path, m.size(), path + " in body should have at least " + node.minProperties()
                + " properties"));
        }
        if (node.maxProperties() != null && m.size() > node.maxProperties()) {
            errors.add(new FieldError(path, "FieldValueTooMany", "Too many: " + m.size() + ": must have at most "
                + node.maxProperties() + " items"));
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String key = (String) e.getKey();
            boolean declared = node.properties().containsKey(key);
            String at = declared ? child(path, key) : path + "[" + key + "]";
            validate(node.property(key), e.getValue(), old == null ? null : old.get(key), at, errors, false);
        }
    }

    private void validateList(SchemaNode node, List<?> l, List<?> old, String path, List<FieldError> errors) {
        if (node.minItems() != null && l.size() < node.minItems()) {
            errors.add(FieldError.invalid(path, l.size(), path + " in body should have at least " + node.minItems() + " items"));
        }
        if (node.maxItems() != null && l.size() > node.maxItems()) {
            errors.add(new FieldError(path, "FieldValueTooMany", "Too many: " + l.size() + ": must have at most "
                + node.maxItems() + " items"));
        }
        Set<Object> seen = new HashSet<>();
        for (int i = 0; i < l.size(); i++) {
            Object item = l.get(i);
            Object identity = "set".equals(node.listType()) ? item
                : "map".equals(node.listType()) && item instanceof Map<?, ?> im ? keyOf(im, node.listMapKeys()) : null;
            if (identity != null && !seen.add(identity)) {
                errors.add(new FieldError(path + "[" + i + "]", "FieldValueDuplicate", "Duplicate value: " + shown(identity)));
            }
            validate(node.items(), item, correlated(node, item, old), path + "[" + i + "]", errors, false);
        }
    }

    /** The stored item a map list's item replaces, for transition rules; none for other lists, as in Kubernetes. */
    private static Object correlated(SchemaNode node, Object item, List<?> old) {
        if (old == null || !"map".equals(node.listType()) || !(item instanceof Map<?, ?> im)) {
            return null;
        }
        Object key = keyOf(im, node.listMapKeys());
        for (Object o : old) {
            if (o instanceof Map<?, ?> om && keyOf(om, node.listMapKeys()).equals(key)) {
                return o;
            }
        }
        return null;
    }

    private static Object keyOf(Map<?, ?> item, List<String> keys) {
        Map<String, Object> out = new LinkedHashMap<>();
        keys.forEach(k -> out.put(k, item.get(k)));
        return out;
    }

    private static void validateNumber(SchemaNode node, Number n, String path, List<FieldError> errors) {
        BigDecimal v = new BigDecimal(n.toString());
        if (node.minimum() != null) {
            int c = v.compareTo(node.minimum());
            if (c < 0 || c == 0 && node.exclusiveMinimum()) {
                errors.add(FieldError.invalid(path, n, path + " in body should be greater than "
                    + (node.exclusiveMinimum() ? "" : "or equal to ") + plain(node.minimum())));
            }
        }
        if (node.maximum() != null) {
            int c = v.compareTo(node.maximum());
            if (c > 0 || c == 0 && node.exclusiveMaximum()) {
                errors.add(FieldError.invalid(path, n, path + " in body should be less than "
                    + (node.exclusiveMaximum() ? "" : "or equal to ") + plain(node.maximum())));
            }
        }
        if (node.multipleOf() != null && node.multipleOf().signum() > 0
            && v.remainder(node.multipleOf()).signum() != 0) {
            errors.add(FieldError.invalid(path, n, path + " in body should be a multiple of " + plain(node.multipleOf())));
        }
    }

    /** The node's CEL rules, {@code self} the value and {@code oldSelf} the stored one on an update. */
    private void rules(SchemaNode node, Object value, Object old, String path, List<FieldError> errors) {
        ValidationRules rules = node.rules();
        if (rules == null || rules.isEmpty() || evaluations > maxRuleEvaluations) {
            return;
        }
        evaluations += rules.rules().size();
        if (evaluations > maxRuleEvaluations) {
            errors.add(FieldError.invalid(path.isEmpty() ? "<root>" : path, "object", "validation failed due to running"
                + " out of cost budget, no further validation rules will be run"));
            return;
        }
        for (ValidationRules.Failure f : rules.failures(value, old, old != null)) {
            int i = rules.rules().indexOf(f.rule());
            String reason = i < 0 ? "FieldValueInvalid" : node.ruleReasons().get(i);
            String fieldPath = i < 0 ? "" : node.ruleFieldPaths().get(i);
            String at = fieldPath.isEmpty() ? path : path + (fieldPath.startsWith(".") || fieldPath.startsWith("[") ? "" : ".")
                + (fieldPath.startsWith(".") ? fieldPath.substring(1) : fieldPath);
            if (at.startsWith(".")) {
                at = at.substring(1);
            }
            errors.add(switch (reason) {
                case "FieldValueForbidden" -> FieldError.forbidden(at, f.message());
                case "FieldValueRequired" -> new FieldError(at, reason, "Required value: " + f.message());
                case "FieldValueDuplicate" -> new FieldError(at, reason, "Duplicate value: \"" + jsonType(value) + "\"");
                default -> new FieldError(at, "FieldValueInvalid", "Invalid value: \"" + jsonType(value) + "\": " + f.message());
            });
        }
    }

    static boolean hasType(SchemaNode node, Object v) {
        if (node.intOrString()) {
            return v instanceof String || isInteger(v);
        }
        if (node.type() == null) {
            return true;
        }
        return switch (node.type()) {
            case "object" -> v instanceof Map;
            case "array" -> v instanceof List;
            case "string" -> v instanceof String;
            case "integer" -> isInteger(v);
            case "number" -> v instanceof Number;
            case "boolean" -> v instanceof Boolean;
            default -> true;
        };
    }

    private static boolean isInteger(Object v) {
        if (v instanceof Long || v instanceof Integer || v instanceof java.math.BigInteger) {
            return true;
        }
        return v instanceof Double d && !d.isInfinite() && d == Math.rint(d)
            || v instanceof BigDecimal b && b.stripTrailingZeros().scale() <= 0;
    }

    private static String typeName(SchemaNode node) {
        return node.intOrString() ? "integer or string" : node.type() == null ? "any" : node.type();
    }

    /** The JSON type of a value, as kube-openapi names it in its messages. */
    static String jsonType(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Map) {
            return "object";
        }
        if (v instanceof List) {
            return "array";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof Boolean) {
            return "boolean";
        }
        return isInteger(v) ? "integer" : "number";
    }

    private static boolean enumContains(List<Object> values, Object v) {
        for (Object e : values) {
            if (e instanceof Number a && v instanceof Number b ? new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString())) == 0
                : e.equals(v)) {
                return true;
            }
        }
        return false;
    }

    private static String supported(List<Object> values) {
        List<String> out = new ArrayList<>();
        values.forEach(v -> out.add(shown(v)));
        return String.join(", ", out);
    }

    static String shown(Object v) {
        return v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
    }

    private static String plain(BigDecimal d) {
        return d.stripTrailingZeros().toPlainString();
    }

    private static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** A deep copy of a tree in mutable collections, its scalars as they are. */
    public static Object copy(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put((String) k, copy(v)));
            return out;
        }
        if (o instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            l.forEach(v -> out.add(copy(v)));
            return out;
        }
        return o;
    }
}
