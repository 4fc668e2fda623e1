package io.statesync.kube.internal;

import java.util.List;
import java.util.Locale;

import io.javalin.http.Context;
import io.statesync.avro.PatchType;
import io.statesync.rest.ApiError;

/**
 * What the Kubernetes API's handlers read from a request, in one place, worded as Kubernetes words its refusals; the
 * request id they share with {@code /api/v1} comes from {@link io.statesync.rest.RestContext#requestId}.
 */
final class KubeRequests {

    private static final String MERGE_PATCH = "application/merge-patch+json";
    private static final String JSON_PATCH = "application/json-patch+json";
    private static final String APPLY_PATCH = "application/apply-patch+yaml";

    private KubeRequests() {
    }

    /**
     * The patch type of a PATCH's Content-Type; 415 for any other. A strategic merge patch is 415 too, as Kubernetes
     * answers for custom resources (it needs patch strategies that only built-in types declare in Go), except for a
     * kind of one of Kubernetes' own groups: see {@link StrategicMergePatches}.
     */
    static PatchType patchType(String contentType, KindCatalog.Kind kind) {
        String base = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return switch (base) {
            case MERGE_PATCH -> PatchType.MergePatch;
            case JSON_PATCH -> PatchType.JsonPatch;
            case APPLY_PATCH -> PatchType.Apply;
            case StrategicMergePatches.MEDIA_TYPE -> {
                if (!StrategicMergePatches.accepted(kind)) {
                    throw unsupported();
                }
                yield PatchType.StrategicMergePatch;
            }
            default -> throw unsupported();
        };
    }

    private static ApiError unsupported() {
        return ApiError.unsupportedMediaType("the body of the request was in an unknown format - accepted media"
            + " types include: " + JSON_PATCH + ", " + MERGE_PATCH + ", " + APPLY_PATCH);
    }

    /** {@code dryRun=All}, as Kubernetes spells it; absent for a real write. */
    static boolean dryRun(Context ctx) {
        return dryRun(ctx.queryParams("dryRun"));
    }

    /** Whether {@code values} (of the query or of a DeleteOptions body) ask for a dry run; 400 for any but "All". */
    static boolean dryRun(List<String> values) {
        for (String v : values) {
            if (!v.equals("All")) {
                throw ApiError.badRequest("dryRun: Unsupported value: \"" + v + "\": supported values: \"All\"");
            }
        }
        return !values.isEmpty();
    }
}
