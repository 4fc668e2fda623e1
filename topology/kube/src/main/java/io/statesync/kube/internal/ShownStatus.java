package io.statesync.kube.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.reconciler.schema.InvalidSchemaException;
import io.statesync.reconciler.schema.StructuralSchema;
import io.statesync.schemas.Values;

/**
 * The status a defined kind shows over the Kubernetes API. A definition whose schema declares {@code status} gets
 * only the status fields that schema knows, as the apiserver stores a custom resource's status pruned to its schema:
 * typed clients (fabric8's, Java Operator SDK's) refuse fields their status class lacks, so statesync's own fields
 * ({@code syncStatus}, {@code health}, {@code diff}, ...) would break them. Such a kind shows those fields in the
 * table's columns and on {@code /api/v1}; a schema that keeps unknown status fields, or declares no status, shows
 * them all.
 */
final class ShownStatus {

    /** Compiled schemas per definition version, by identity: the catalog keeps a version's node until it changes. */
    private static final Map<Identity, StructuralSchema> SCHEMAS = new ConcurrentHashMap<>();
    private static final int MAX_CACHED = 256;

    private record Identity(JsonNode node) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity i && i.node == node;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(node);
        }
    }

    private ShownStatus() {
    }

    /** {@code object} (changed and returned) with its status pruned to the served version's status schema, if any. */
    @SuppressWarnings("unchecked")
    static ObjectNode of(KindCatalog.Served served, ObjectNode object) {
        JsonNode version = served.kind().definitionVersion(served.version());
        JsonNode schema = version == null ? null : version.path("schema").path("openAPIV3Schema");
        JsonNode statusSchema = schema == null ? null : schema.path("properties").get("status");
        if (statusSchema == null || statusSchema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
            || !(object.get("status") instanceof ObjectNode status)) {
            return object;
        }
        StructuralSchema compiled = compiled(schema);
        if (compiled == null) {
            return object;
        }
        Map<String, Object> pruned = compiled.pruned(Map.of("status", Values.toJava(Values.fromJson(status))));
        Object kept = pruned.get("status");
        object.set("status", kept == null ? ResourceHandlers.MAPPER.createObjectNode()
            : ResourceHandlers.MAPPER.valueToTree(kept));
        return object;
    }

    @SuppressWarnings("unchecked")
    private static StructuralSchema compiled(JsonNode schema) {
        Identity id = new Identity(schema);
        StructuralSchema s = SCHEMAS.get(id);
        if (s != null) {
            return s;
        }
        try {
            s = StructuralSchema.compile((Map<String, Object>) Values.toJava(Values.fromJson(schema)), "",
                StructuralSchema.Limits.DEFAULTS);
        } catch (InvalidSchemaException | IllegalArgumentException e) {
            return null;
        }
        if (SCHEMAS.size() >= MAX_CACHED) {
            SCHEMAS.clear();
        }
        SCHEMAS.put(id, s);
        return s;
    }
}
