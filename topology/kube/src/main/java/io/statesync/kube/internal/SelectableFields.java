package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.rest.ApiError;
import io.statesync.schemas.Values;
import io.statesync.view.StoredResource;

/**
 * A CustomResourceDefinition version's {@code selectableFields}: the field labels a {@code fieldSelector} may name
 * beside {@code metadata.name} and {@code metadata.namespace}, each read from an object by its simple JSON path. As in
 * Kubernetes, a path must lead through the schema's properties to a string, integer or boolean field outside
 * {@code metadata}, a version holds at most {@link #MAX} of them, and an absent field selects as the empty string.
 */
final class SelectableFields {

    /** Kubernetes' bound on a version's selectable fields. */
    static final int MAX = 8;
    private static final Set<String> SELECTABLE_TYPES = Set.of("string", "integer", "boolean");

    private SelectableFields() {
    }

    /** The served version's fields by label ({@code spec.color}), each with its path's segments. */
    static Map<String, List<String>> of(KindCatalog.Served served) {
        JsonNode version = served.kind().definitionVersion(served.version());
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (version != null) {
            for (JsonNode f : version.path("selectableFields")) {
                List<String> path = path(f.path("jsonPath").asText(""));
                if (path != null) {
                    out.put(String.join(".", path), path);
                }
            }
        }
        return out;
    }

    /** The value a field selector compares: the field as text, or the empty string when it is absent or not a scalar. */
    static String value(StoredResource r, KindCatalog.Served served, List<String> path) {
        JsonNode v = path.get(0).equals("spec") ? Values.toJson(r.resource().getSpec())
            : KubeObjects.of(served, r, "").path(path.get(0));
        for (int i = 1; i < path.size(); i++) {
            v = v.path(path.get(i));
        }
        return v.isValueNode() && !v.isNull() ? v.asText() : "";
    }

    /** Adds a cause for each of {@code version}'s selectable fields that Kubernetes would refuse. */
    static void validate(List<ApiError.Cause> causes, JsonNode version, String at) {
        JsonNode fields = version.path("selectableFields");
        if (fields.size() > MAX) {
            causes.add(new ApiError.Cause("FieldValueTooMany", "Too many: " + fields.size() + ": must have at most "
                + MAX + " items", at + ".selectableFields"));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < fields.size(); i++) {
            String jsonPath = fields.get(i).path("jsonPath").asText("");
            String field = at + ".selectableFields[" + i + "].jsonPath";
            List<String> path = path(jsonPath);
            String problem = jsonPath.isEmpty() ? null : path == null ? "is an invalid path: must be a simple JSON path"
                + " without array notation, such as .spec.color" : path.get(0).equals("metadata")
                ? "must not point to metadata fields" : typeProblem(version.path("schema").path("openAPIV3Schema"), path);
            if (jsonPath.isEmpty()) {
                causes.add(new ApiError.Cause("FieldValueRequired", "Required value", field));
            } else if (problem != null) {
                causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: \"" + jsonPath + "\": " + problem, field));
            } else if (!seen.add(String.join(".", path))) {
                causes.add(new ApiError.Cause("FieldValueDuplicate", "Duplicate value: \"" + jsonPath + "\"", field));
            }
        }
    }

    /** Why {@code path} does not lead through {@code schema} to a selectable scalar, or null when it does. */
    private static String typeProblem(JsonNode schema, List<String> path) {
        JsonNode node = schema;
        for (String segment : path) {
            JsonNode next = node.path("properties").path(segment);
            if (next.isMissingNode() && node.path("additionalProperties").isObject()) {
                next = node.path("additionalProperties");
            }
            if (next.isMissingNode()) {
                return "is an invalid path: no field of the schema";
            }
            node = next;
        }
        String type = node.path("type").asText("");
        return SELECTABLE_TYPES.contains(type) ? null : "must point to a field of type string, boolean or integer";
    }

    /** {@code .a.b} as its segments; null for anything but a simple field path. */
    static List<String> path(String jsonPath) {
        String p = jsonPath.trim();
        if (!p.startsWith(".") || p.endsWith(".")) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String segment : p.substring(1).split("\\.", -1)) {
            if (!segment.matches("[A-Za-z0-9_-]+")) {
                return null;
            }
            out.add(segment);
        }
        return out;
    }
}
