package io.statesync.kube.internal;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An OpenAPI v3 schema as an OpenAPI 2.0 Schema Object, as the apiserver publishes a custom resource's schema on
 * {@code /openapi/v2}: what 2.0 has no word for ({@code nullable}, {@code oneOf}, {@code anyOf}, {@code not}) is
 * dropped, since a client that cannot read the document stops working with the whole server.
 */
final class OpenApiSchemas {

    private static final Set<String> NOT_IN_V2 = Set.of("nullable", "oneOf", "anyOf", "not", "x-kubernetes-validations");
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "definitions");
    private static final Set<String> SCHEMA_VALUES = Set.of("items", "additionalProperties", "allOf");

    private OpenApiSchemas() {
    }

    /** Converts {@code schema} in place and returns it. */
    static ObjectNode toV2(ObjectNode schema) {
        schema.remove(NOT_IN_V2);
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (SCHEMA_MAPS.contains(e.getKey()) && e.getValue() instanceof ObjectNode map) {
                map.forEach(v -> {
                    if (v instanceof ObjectNode o) {
                        toV2(o);
                    }
                });
            } else if (SCHEMA_VALUES.contains(e.getKey())) {
                if (e.getValue() instanceof ObjectNode o) {
                    toV2(o);
                } else if (e.getValue().isArray()) {
                    e.getValue().forEach(v -> {
                        if (v instanceof ObjectNode o) {
                            toV2(o);
                        }
                    });
                }
            }
        }
        return schema;
    }
}
