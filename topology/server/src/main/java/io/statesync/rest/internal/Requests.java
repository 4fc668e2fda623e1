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
    /** The longest {@code X-Request-Id} kept; a longer one is replaced, as an absent one is. */
    private static final int MAX_REQUEST_ID_CHARS = 200;

    private Requests() {
    }

    /** The resource key of the path's kind, namespace and name; 400 naming the bad part. */
    public static ResourceKey key(Context ctx) {
        try {
            return ResourceKey.of(ctx.pathParam("kind"), ctx.pathParam("namespace"), ctx.pathParam("name"));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
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
    public static PatchType patchType(String contentType) {
        String base = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (base.equals(MERGE_PATCH)) {
            return PatchType.MergePatch;
        }
        if (base.equals(JSON_PATCH)) {
            return PatchType.JsonPatch;
        }
        throw ApiError.unsupportedMediaType("Content-Type must be " + MERGE_PATCH + " or " + JSON_PATCH
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
