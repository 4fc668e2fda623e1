package io.statesync.rest.internal;

import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;

import io.javalin.http.Context;
import io.statesync.avro.PatchType;
import io.statesync.rest.ApiError;
import io.statesync.topology.ResourceKey;

/** What the handlers of {@code /api/v1} read from a request and write on its answer, in one place. */
public final class Requests {

    public static final String MERGE_PATCH = "application/merge-patch+json";
    public static final String JSON_PATCH = "application/json-patch+json";
    /** Server-side apply: the body is the manager's whole configuration, YAML or JSON. */
    public static final String APPLY_PATCH = "application/apply-patch+yaml";
    /** The longest {@code X-Request-Id} kept; a longer one is replaced, as an absent one is. */
    private static final int MAX_REQUEST_ID_CHARS = 200;

    private Requests() {
    }

    /** The path segment that stands for a cluster-scoped object's empty namespace. */
    public static final String CLUSTER_SEGMENT = "-";

    /** The resource key of the path's kind, namespace and name; 400 naming the bad part. */
    public static ResourceKey key(Context ctx) {
        try {
            return ResourceKey.of(ctx.pathParam("kind"), namespace(ctx), ctx.pathParam("name"));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
    }

    /** The path's namespace: {@link #CLUSTER_SEGMENT} is the empty namespace of a cluster-scoped object. */
    public static String namespace(Context ctx) {
        String ns = ctx.pathParam("namespace");
        return CLUSTER_SEGMENT.equals(ns) ? "" : ns;
    }

    /** The path segment of {@code namespace}. */
    public static String namespaceSegment(String namespace) {
        return namespace.isEmpty() ? CLUSTER_SEGMENT : namespace;
    }

    /** The request's media type, without parameters, when it is one of {@code accepted}; 415 otherwise. */
    public static String requireContentType(Context ctx, String... accepted) {
        String ct = ctx.contentType();
        String base = ct == null ? "" : ct.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!Arrays.asList(accepted).contains(base)) {
            throw ApiError.unsupportedMediaType("Content-Type must be " + String.join(" or ", accepted)
                + (ct == null ? "" : ", got " + ct));
        }
        return base;
    }

    /** If-Match with the quotes and weak prefix removed; {@code *} means no precondition. */
    public static String ifMatch(Context ctx) {
        return ResourceVersions.unquote(ctx.header("If-Match"));
    }

    /** Whether {@code If-None-Match: *} makes a PUT create-only. */
    public static boolean ifNoneMatchAny(Context ctx) {
        String v = ctx.header("If-None-Match");
        return v != null && v.trim().equals("*");
    }

    public static String pathAndQuery(Context ctx) {
        String q = ctx.queryString();
        return ctx.path() + (q == null || q.isEmpty() ? "" : "?" + q);
    }

    /** A version as an ETag. */
    public static String quote(String v) {
        return "\"" + (v == null ? "" : v) + "\"";
    }

    /** {@code dryRun=All} as Kubernetes spells it; absent means a real write. */
    public static boolean dryRun(Context ctx) {
        String v = ctx.queryParam("dryRun");
        if (v == null) {
            return false;
        }
        if (!v.equals("All")) {
            throw ApiError.badRequest("dryRun must be 'All' or absent");
        }
        return true;
    }

    /** The patch type of a PATCH's Content-Type; 415 for any other. */
    /**
     * The {@code force} parameter: true takes an apply's conflicting fields from their managers; Kubernetes refuses it
     * on any other patch (422).
     */
    public static boolean force(Context ctx, boolean apply) {
        String given = ctx.queryParam("force");
        if (given == null || given.isEmpty()) {
            return false;
        }
        if (!apply) {
            throw ApiError.unprocessable("force: Forbidden: may not be specified for non-apply patch");
        }
        // As Go's strconv.ParseBool reads it, which is how Kubernetes reads it and what clients send (Python: True).
        return switch (given) {
            case "1", "t", "T", "true", "TRUE", "True" -> true;
            case "0", "f", "F", "false", "FALSE", "False" -> false;
            default -> throw ApiError.badRequest("force must be true or false, got " + given);
        };
    }

    public static PatchType patchType(String contentType) {
        String base = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (base.equals(MERGE_PATCH)) {
            return PatchType.MergePatch;
        }
        if (base.equals(JSON_PATCH)) {
            return PatchType.JsonPatch;
        }
        if (base.equals(APPLY_PATCH)) {
            return PatchType.Apply;
        }
        throw ApiError.unsupportedMediaType("Content-Type must be " + MERGE_PATCH + ", " + JSON_PATCH + " or " + APPLY_PATCH
            + (contentType == null ? "" : ", got " + contentType));
    }

    /**
     * The write's request id, echoed on the answer: the client's {@code X-Request-Id}, else a new UUID. It names the
     * write in its admission event and in messages only; answers are matched by an id the server generates.
     */
    public static String requestId(Context ctx) {
        String given = ctx.header("X-Request-Id");
        String id = given != null && !given.isBlank() && given.length() <= MAX_REQUEST_ID_CHARS ? given
            : UUID.randomUUID().toString();
        ctx.header("X-Request-Id", id);
        return id;
    }
}
