package io.statesync.reconciler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.reconciler.schema.InvalidSchemaException;
import io.statesync.reconciler.schema.StructuralSchema;

/**
 * What a CustomResourceDefinition says of its kind, as admission reads it: the served versions, the storage version and
 * each version's {@code openAPIV3Schema}, each compiled once. {@link #none()} is a kind no definition
 * defines, whose writes any JSON object passes.
 */
public final class KindDefinition {

    private static final KindDefinition NONE = new KindDefinition(Map.of(), StructuralSchema.Limits.DEFAULTS);

    private final Map<String, Object> spec;
    private final StructuralSchema schema;
    private final Map<String, StructuralSchema> schemas;
    private final String schemaProblem;

    /**
     * @param spec   the definition's spec as a JSON tree (maps, lists, strings, numbers, booleans), empty for none
     * @param limits the bounds of its schema and of the check of one write
     */
    public KindDefinition(Map<String, Object> spec, StructuralSchema.Limits limits) {
        this.spec = Map.copyOf(spec);
        Map<String, StructuralSchema> compiled = new java.util.HashMap<>();
        String problem = null;
        String storage = storageVersion();
        for (Map<String, Object> v : versions()) {
            String name = String.valueOf(v.get("name"));
            Map<String, Object> raw = schema(name);
            if (raw == null) {
                continue;
            }
            try {
                compiled.put(name, StructuralSchema.compile(raw, "spec.versions[" + name + "].schema.openAPIV3Schema",
                    limits));
            } catch (InvalidSchemaException e) {
                if (name.equals(storage)) {
                    problem = e.getMessage();
                }
            }
        }
        this.schemas = Map.copyOf(compiled);
        this.schema = storage == null ? null : compiled.get(storage);
        this.schemaProblem = problem;
    }

    /** The definition's spec. */
    public Map<String, Object> spec() {
        return spec;
    }

    /**
     * The storage version's schema, by which every write of the kind is checked, defaulted and pruned; null when the
     * version has none, or one that does not compile ({@link #schemaProblem()}), whose writes are then not checked.
     */
    public StructuralSchema schema() {
        return schema;
    }

    /**
     * The schema a write in {@code apiVersion} ({@code group/version}) is held to: its version's, as the apiserver
     * validates an object in the version it was written in, or the storage version's when that version has none or
     * the write names no version of the definition (a record written straight to the topic).
     */
    public StructuralSchema schemaFor(String apiVersion) {
        String version = apiVersion == null ? "" : apiVersion.substring(apiVersion.indexOf('/') + 1);
        return schemas.getOrDefault(version, schema);
    }

    /** Why the storage version's schema does not compile, or null. */
    public String schemaProblem() {
        return schemaProblem;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KindDefinition d && d.spec.equals(spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    public static KindDefinition none() {
        return NONE;
    }

    /** Whether a definition defines the kind. */
    public boolean defined() {
        return !spec.isEmpty();
    }

    /** The versions the definition serves, in its order. */
    public List<String> servedVersions() {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> v : versions()) {
            if (Boolean.TRUE.equals(v.get("served"))) {
                out.add(String.valueOf(v.get("name")));
            }
        }
        return out;
    }

    /** The version objects are recorded in, or null without a definition. */
    public String storageVersion() {
        for (Map<String, Object> v : versions()) {
            if (Boolean.TRUE.equals(v.get("storage"))) {
                return String.valueOf(v.get("name"));
            }
        }
        return null;
    }

    /** The {@code openAPIV3Schema} of {@code version}, or null when the version has none or is not defined. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> schema(String version) {
        for (Map<String, Object> v : versions()) {
            if (version.equals(v.get("name")) && v.get("schema") instanceof Map<?, ?> s
                && s.get("openAPIV3Schema") instanceof Map<?, ?> schema) {
                return (Map<String, Object>) schema;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> versions() {
        List<Map<String, Object>> out = new ArrayList<>();
        if (spec.get("versions") instanceof List<?> list) {
            for (Object v : list) {
                if (v instanceof Map<?, ?> m) {
                    out.add((Map<String, Object>) m);
                }
            }
        }
        return out;
    }
}
