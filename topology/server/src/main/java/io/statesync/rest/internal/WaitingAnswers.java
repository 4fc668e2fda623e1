package io.statesync.rest.internal;

import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import io.statesync.rest.store.ConvergenceWaits;
import io.statesync.view.StoredResource;

/**
 * The answer of a write that waits for convergence, the same on both APIs: the request goes asynchronous (no thread
 * waits for it) and is answered when the wait ends. Converged, it is the write's own code with the object as the
 * view shows it then; past the timeout it is 202 Accepted with the object as it stands, as the apiserver answers a
 * delete that finalizers still hold: the write is stored, its outcome is not there yet. The
 * {@code X-Statesync-Wait} header names which: the condition reached, {@code Timeout}, or {@code Deleted}; a timeout
 * also carries a {@code Warning} that kubectl prints.
 */
public final class WaitingAnswers {

    /** The header that says how a waiting write ended. */
    public static final String HEADER = "X-Statesync-Wait";
    public static final String TIMEOUT = "Timeout";
    public static final String DELETED = "Deleted";

    private WaitingAnswers() {
    }

    /**
     * Waits, without a thread, for {@code key} at {@code generation} and answers {@code ctx}: {@code code} with
     * {@code render} of the converged object, or 202 with the object as it stands ({@code written} when it is gone).
     */
    public static void answer(Context ctx, ConvergenceWaits.Wait wait, String key, long generation, int code,
                              JsonNode written, Function<StoredResource, JsonNode> render) {
        ctx.future(() -> wait.until(key, generation).thenAccept(o -> {
            String how = o.converged() ? o.condition().name() : o.resource() == null ? DELETED : TIMEOUT;
            ctx.header(HEADER, how);
            if (o.converged()) {
                ctx.status(code);
            } else {
                ctx.status(202);
                ctx.header("Warning", "299 - \"waitFor=" + o.condition() + ": generation " + generation + " is not "
                    + o.condition() + (o.resource() == null ? ": the object was deleted" : " after " + o.timeoutSeconds()
                    + "s") + "; the write is stored\"");
            }
            ctx.json(o.resource() == null ? written : render.apply(o.resource()));
        }));
    }

    /** The generation of a written object as answered, 0 when it has none. */
    public static long generation(JsonNode object) {
        return object == null ? 0 : object.path("metadata").path("generation").asLong(0);
    }
}
