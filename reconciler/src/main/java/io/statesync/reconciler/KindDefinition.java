package io.statesync.reconciler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a CustomResourceDefinition says of its kind, as admission reads it: the served versions, the storage version and
 * each version's {@code openAPIV3Schema}. {@link #none()} is a kind no definition defines, whose writes any JSON
 * object passes.
 *
 * @param spec the definition's spec as a JSON tree (maps, lists, strings, numbers, booleans), empty for none
 */
public record KindDefinition(Map<String, Object> spec) {

    private static final KindDefinition NONE = new KindDefinition(Map.of());

    public KindDefinition {
        spec = Map.copyOf(spec);
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
