package io.statesync.rest.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import io.javalin.http.Context;
import io.statesync.rest.ApiError;

/**
 * Refuses a request whose path or query has a malformed percent-escape, before any handler reads it: Jetty drops a
 * query it cannot decode (so {@code ?continue=%} would silently list from the start, and {@code ?resourceVersion=%}
 * would watch from now), and Javalin's path decoding throws an unchecked exception that would be a 500.
 */
public final class UriCheck {

    private UriCheck() {
    }

    public static void requireWellFormed(Context ctx) {
        check("path", ctx.req().getRequestURI());
        check("query", ctx.queryString());
    }

    private static void check(String part, String raw) {
        if (raw == null || raw.indexOf('%') < 0) {
            return;
        }
        try {
            URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("the " + part + " has a malformed percent-escape: " + e.getMessage());
        }
    }
}
