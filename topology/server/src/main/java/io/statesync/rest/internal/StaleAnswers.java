package io.statesync.rest.internal;

import io.javalin.http.Context;

/**
 * Marks an answer served from the resource view after it failed to catch up with the committed end in time: the
 * answer may miss writes acknowledged before the request, and the client should know rather than trust it.
 */
public final class StaleAnswers {

    /** {@code true} on an answer that may be stale. */
    public static final String HEADER = "X-Statesync-Stale";
    /** RFC 7234's miscellaneous persistent warning, as the Kubernetes API sends its warnings. */
    public static final String WARNING = "299 - \"served from this instance's view before it caught up with the writes committed"
        + " when the request arrived; it may miss recent writes\"";

    private StaleAnswers() {
    }

    public static void mark(Context ctx) {
        ctx.header(HEADER, "true");
        ctx.header("Warning", WARNING);
    }
}
