package io.statesync.reconciler.schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.statesync.reconciler.fields.ListShape;
import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.schema.internal.SchemaNode;
import io.statesync.reconciler.schema.internal.SchemaParser;
import io.statesync.reconciler.schema.internal.SchemaWalker;

/**
 * A CustomResourceDefinition version's {@code openAPIV3Schema}, compiled, and what the apiserver does with it to
 * every write of the kind: unknown fields pruned (unless {@code x-kubernetes-preserve-unknown-fields}), {@code default}s
 * applied, and the object validated (types, {@code nullable}, {@code required}, {@code enum}, bounds, {@code pattern},
 * lengths, item and property counts, {@code format}, list types, and the {@code x-kubernetes-validations} CEL rules),
 * each failure a {@link FieldError} worded as the apiserver words it. The schema covers the object's {@code spec} and
 * {@code status}; {@code apiVersion}, {@code kind} and {@code metadata} are the server's and are left alone.
 */
public final class StructuralSchema {

    /**
     * Bounds of a schema and of one write's check, so that a definition cannot make every write of its kind expensive:
     * the schema's levels and nodes, the rule evaluations of one write (a rule on list items runs once per item), and
     * the character reads a {@code pattern} may spend on one value.
     */
    public record Limits(int maxDepth, int maxNodes, int maxRuleEvaluations, long maxPatternSteps) {
        public static final Limits DEFAULTS = new Limits(64, 10_000, 1_000, 2_000_000);
    }

    private final SchemaNode root;
    private final Limits limits;

    private StructuralSchema(SchemaNode root, Limits limits) {
        this.root = root;
        this.limits = limits;
    }

    /**
     * Compiles {@code openAPIV3Schema}; a schema that is not structural, uses what is not supported, or passes the
     * limits is refused with one error per problem, its field named under {@code fieldPrefix} (such as
     * {@code spec.versions[0].schema.openAPIV3Schema}).
     */
    public static StructuralSchema compile(Map<String, Object> openAPIV3Schema, String fieldPrefix, Limits limits)
        throws InvalidSchemaException {
        List<FieldError> errors = new ArrayList<>();
        SchemaNode root = new SchemaParser(fieldPrefix, limits, errors).parse(openAPIV3Schema);
        if (!errors.isEmpty()) {
            throw new InvalidSchemaException(errors);
        }
        return new StructuralSchema(root, limits);
    }

    /** The admitted object and the errors that refuse it (none when it is valid). */
    public record Admission(Map<String, Object> object, List<FieldError> errors) {
        public boolean valid() {
            return errors.isEmpty();
        }
    }

    /**
     * Prunes, defaults and validates {@code object} (a copy is changed, never the argument), in the apiserver's order.
     * {@code old} is the stored object for an update, for the transition rules that read {@code oldSelf}; null for a
     * create.
     */
    public Admission admit(Map<String, Object> object, Map<String, Object> old) {
        Map<String, Object> copy = copyTree(object);
        Map<String, Object> body = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : copy.entrySet()) {
            if (!SERVER_FIELDS.contains(e.getKey())) {
                body.put(e.getKey(), e.getValue());
            }
        }
        SchemaWalker walker = new SchemaWalker(limits.maxRuleEvaluations(), limits.maxPatternSteps());
        walker.prune(root, body, "", null);
        Object defaulted = walker.applyDefaults(root, body);
        List<FieldError> errors = new ArrayList<>();
        walker.validate(root, defaulted, old == null ? null : withoutServerFields(old), "", errors, true);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : copy.entrySet()) {
            if (SERVER_FIELDS.contains(e.getKey())) {
                out.put(e.getKey(), e.getValue());
            }
        }
        if (defaulted instanceof Map<?, ?> m) {
            m.forEach((k, v) -> out.put((String) k, v));
        }
        return new Admission(out, List.copyOf(errors));
    }

    /**
     * The paths of the fields of {@code object} the schema does not know, which {@link #admit} prunes: what
     * Kubernetes' {@code fieldValidation=Strict} refuses and {@code Warn} warns of.
     */
    public List<String> unknownFields(Map<String, Object> object) {
        Map<String, Object> body = withoutServerFields(copyTree(object));
        List<String> removed = new ArrayList<>();
        new SchemaWalker(limits.maxRuleEvaluations(), limits.maxPatternSteps()).prune(root, body, "", removed);
        return removed;
    }

    /**
     * A copy of {@code object} without {@code apiVersion}, {@code kind}, {@code metadata} and the fields the schema
     * does not know, pruned as {@link #admit} prunes; nothing is defaulted or validated.
     */
    public Map<String, Object> pruned(Map<String, Object> object) {
        Map<String, Object> body = withoutServerFields(copyTree(object));
        new SchemaWalker(limits.maxRuleEvaluations(), limits.maxPatternSteps()).prune(root, body, "", null);
        return body;
    }

    /** The type of each list the schema declares ({@code x-kubernetes-list-type}); others are atomic. */
    public ListShapes listShapes() {
        return fieldNames -> {
            SchemaNode n = root;
            for (String f : fieldNames) {
                while (n != null && n.items() != null) {
                    n = n.items();
                }
                n = n == null ? null : n.property(f);
            }
            if (n == null) {
                return ListShape.ATOMIC;
            }
            return switch (n.listType() == null ? "atomic" : n.listType()) {
                case "set" -> ListShape.SET;
                case "map" -> ListShape.map(n.listMapKeys().toArray(String[]::new));
                default -> ListShape.ATOMIC;
            };
        };
    }

    private static final Set<String> SERVER_FIELDS = new HashSet<>(List.of("apiVersion", "kind", "metadata"));

    private static Map<String, Object> withoutServerFields(Map<String, Object> m) {
        Map<String, Object> out = new LinkedHashMap<>(m);
        SERVER_FIELDS.forEach(out::remove);
        return out;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> copyTree(Map<String, Object> m) {
        return (Map<String, Object>) SchemaWalker.copy(m);
    }
}
