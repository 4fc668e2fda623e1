package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import io.statesync.reconciler.schema.InvalidSchemaException;
import io.statesync.reconciler.schema.StructuralSchema;
import io.statesync.rest.ApiError;
import io.statesync.schemas.Values;

/**
 * Kubernetes' {@code fieldValidation} of a write to a kind whose definition has a schema: the fields of the body the
 * served version's schema does not know are refused with {@code Strict} (400, as kubectl's default asks), reported
 * in {@code Warning} headers with {@code Warn} (the default), and left unsaid with {@code Ignore}; admission prunes
 * them in every case.
 */
final class FieldValidation {

    private FieldValidation() {
    }

    /** Checks {@code body} (an object, a merge patch or an applied configuration) in the server's form. */
    @SuppressWarnings("unchecked")
    static void check(Context ctx, KindCatalog.Served served, JsonNode body, StructuralSchema.Limits limits) {
        String mode = mode(ctx.queryParam("fieldValidation"));
        JsonNode version = served.kind().definitionVersion(served.version());
        JsonNode schema = version == null ? null : version.path("schema").path("openAPIV3Schema");
        if (mode.equals("Ignore") || schema == null || !schema.isObject() || !body.isObject()) {
            return;
        }
        List<String> unknown;
        try {
            unknown = StructuralSchema.compile((Map<String, Object>) Values.toJava(Values.fromJson(schema)), "",
                limits).unknownFields((Map<String, Object>) Values.toJava(Values.fromJson(body)));
        } catch (InvalidSchemaException | IllegalArgumentException e) {
            return;
        }
        if (unknown.isEmpty()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        unknown.forEach(f -> parts.add("unknown field \"" + f + "\""));
        if (mode.equals("Strict")) {
            String kind = served.kind().kindName();
            throw ApiError.badRequest(kind + " in version \"" + served.version() + "\" cannot be handled as a " + kind
                + ": strict decoding error: " + String.join(", ", parts));
        }
        parts.forEach(p -> ctx.res().addHeader("Warning", "299 - \"" + p.replace("\"", "\\\"") + "\""));
    }

    private static String mode(String value) {
        if (value == null || value.isEmpty()) {
            return "Warn";
        }
        return switch (value) {
            case "Strict", "Warn", "Ignore" -> value;
            default -> throw ApiError.badRequest("fieldValidation: Unsupported value: \"" + value
                + "\": supported values: \"Ignore\", \"Strict\", \"Warn\"");
        };
    }
}
