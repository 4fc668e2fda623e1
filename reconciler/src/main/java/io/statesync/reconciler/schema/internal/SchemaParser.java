package io.statesync.reconciler.schema.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.statesync.reconciler.InvalidRuleException;
import io.statesync.reconciler.ValidationRule;
import io.statesync.reconciler.ValidationRules;
import io.statesync.reconciler.schema.FieldError;
import io.statesync.reconciler.schema.StructuralSchema;

/**
 * Compiles a structural schema, refusing what apiextensions refuses of one (a node without a type, unless it preserves
 * unknown fields or is int-or-string; {@code uniqueItems}; a map list without keys) and what is not supported here
 * ({@code $ref}, {@code oneOf}/{@code anyOf}/{@code allOf}/{@code not} are accepted only as they carry no type, and
 * ignored), each problem one error.
 */
public final class SchemaParser {

    private static final Set<String> TYPES = Set.of("object", "array", "string", "integer", "number", "boolean");

    private final String prefix;
    private final StructuralSchema.Limits limits;
    private final List<FieldError> errors;
    private int nodes;

    public SchemaParser(String prefix, StructuralSchema.Limits limits, List<FieldError> errors) {
        this.prefix = prefix;
        this.limits = limits;
        this.errors = errors;
    }

    public SchemaNode parse(Map<String, Object> schema) {
        return node(schema, prefix, 1);
    }

    private SchemaNode node(Map<String, Object> s, String at, int depth) {
        if (++nodes > limits.maxNodes() || depth > limits.maxDepth()) {
            if (nodes == limits.maxNodes() + 1 || depth == limits.maxDepth() + 1) {
                errors.add(FieldError.forbidden(at, "the schema may hold at most " + limits.maxNodes() + " nodes and "
                    + limits.maxDepth() + " levels"));
            }
            return null;
        }
        String type = text(s.get("type"));
        boolean preserve = Boolean.TRUE.equals(s.get("x-kubernetes-preserve-unknown-fields"));
        boolean intOrString = Boolean.TRUE.equals(s.get("x-kubernetes-int-or-string"));
        checkStructural(s, at, type, type == null && !preserve && !intOrString && depth > 1);
        Map<String, SchemaNode> properties = properties(s, at, depth);
        SchemaNode additional = null;
        boolean additionalAllowed = false;
        if (s.get("additionalProperties") instanceof Map<?, ?> a) {
            additional = node(map(a), at + ".additionalProperties", depth + 1);
            additionalAllowed = true;
        } else if (Boolean.TRUE.equals(s.get("additionalProperties"))) {
            additionalAllowed = true;
        }
        SchemaNode items = s.get("items") instanceof Map<?, ?> i ? node(map(i), at + ".items", depth + 1) : null;
        if ("array".equals(type) && items == null) {
            errors.add(FieldError.required(at + ".items"));
        }
        String listType = text(s.get("x-kubernetes-list-type"));
        List<String> mapKeys = strings(s.get("x-kubernetes-list-map-keys"));
        if ("map".equals(listType) && mapKeys.isEmpty()) {
            errors.add(FieldError.required(at + ".x-kubernetes-list-map-keys"));
        }
        Pattern pattern = pattern(s.get("pattern"), at);
        List<Object> enumValues = s.get("enum") instanceof List<?> e ? new ArrayList<>(e) : List.of();
        RulesAt rules = rules(s.get("x-kubernetes-validations"), at);
        return new SchemaNode(type, Boolean.TRUE.equals(s.get("nullable")), properties, additional, additionalAllowed,
            items, new LinkedHashSet<>(strings(s.get("required"))), enumValues, decimal(s.get("minimum")),
            Boolean.TRUE.equals(s.get("exclusiveMinimum")), decimal(s.get("maximum")),
            Boolean.TRUE.equals(s.get("exclusiveMaximum")), decimal(s.get("multipleOf")), pattern, text(s.get("pattern")),
            whole(s.get("minLength")), whole(s.get("maxLength")), whole(s.get("minItems")), whole(s.get("maxItems")),
            whole(s.get("minProperties")), whole(s.get("maxProperties")), text(s.get("format")), s.get("default"), preserve,
            intOrString, Boolean.TRUE.equals(s.get("x-kubernetes-embedded-resource")), listType, mapKeys, rules.compiled,
            rules.reasons, rules.fieldPaths);
    }

    /** What makes a node not structural: {@code $ref}, {@code uniqueItems}, an unknown type, or none where one is due. */
    private void checkStructural(Map<String, Object> s, String at, String type, boolean typeMissing) {
        if (s.containsKey("$ref")) {
            errors.add(FieldError.forbidden(at + ".$ref", "$ref is not allowed in a structural schema"));
        }
        if (Boolean.TRUE.equals(s.get("uniqueItems"))) {
            errors.add(FieldError.forbidden(at + ".uniqueItems", "uniqueItems cannot be set to true since the runtime"
                + " complexity becomes quadratic"));
        }
        if (type != null && !TYPES.contains(type)) {
            errors.add(new FieldError(at + ".type", "FieldValueNotSupported", "Unsupported value: \"" + type
                + "\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""));
        }
        if (typeMissing) {
            errors.add(FieldError.required(at + ".type"));
        }
    }

    private Map<String, SchemaNode> properties(Map<String, Object> s, String at, int depth) {
        Map<String, SchemaNode> out = new LinkedHashMap<>();
        if (s.get("properties") instanceof Map<?, ?> props) {
            for (Map.Entry<?, ?> e : props.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> child) {
                    SchemaNode n = node(map(child), at + ".properties[" + e.getKey() + "]", depth + 1);
                    if (n != null) {
                        out.put(String.valueOf(e.getKey()), n);
                    }
                }
            }
        }
        return out;
    }

    private record RulesAt(ValidationRules compiled, List<String> reasons, List<String> fieldPaths) {
    }

    private RulesAt rules(Object value, String at) {
        List<ValidationRule> rules = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> r && r.get("rule") instanceof String rule) {
                    rules.add(new ValidationRule(rule, text(r.get("message")), ""));
                    reasons.add(r.get("reason") instanceof String reason ? reason : "FieldValueInvalid");
                    paths.add(r.get("fieldPath") instanceof String p ? p : "");
                }
            }
        }
        try {
            return new RulesAt(ValidationRules.compile(rules), reasons, paths);
        } catch (InvalidRuleException e) {
            errors.add(FieldError.invalid(at + ".x-kubernetes-validations", "rule", "compilation failed: " + e.getMessage()));
            return new RulesAt(ValidationRules.none(), List.of(), List.of());
        }
    }

    private Pattern pattern(Object value, String at) {
        if (!(value instanceof String p)) {
            return null;
        }
        try {
            return Pattern.compile(p);
        } catch (PatternSyntaxException e) {
            errors.add(FieldError.invalid(at + ".pattern", p, "must be a valid regular expression"));
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }

    private static String text(Object o) {
        return o instanceof String s ? s : null;
    }

    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        if (o instanceof List<?> l) {
            l.forEach(v -> out.add(String.valueOf(v)));
        }
        return out;
    }

    private static BigDecimal decimal(Object o) {
        return o instanceof Number n ? new BigDecimal(n.toString()) : null;
    }

    private static Long whole(Object o) {
        return o instanceof Number n ? n.longValue() : null;
    }
}
