package io.statesync.rest.internal;

import java.util.UUID;

import io.javalin.http.Context;
import io.statesync.rest.ApiError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an exception no handler expected into a 500 that carries an error id and nothing else of the failure: class
 * names and messages tell an attacker about the internals, and the id lets the operator find the logged cause.
 */
public final class UnexpectedErrors {

    private static final Logger LOG = LoggerFactory.getLogger(UnexpectedErrors.class);

    private UnexpectedErrors() {
    }

    /** Logs {@code e} with its stack trace under a new error id, and returns the 500 that names that id. */
    public static ApiError answer(Context ctx, Exception e) {
        String errorId = UUID.randomUUID().toString();
        String request;
        try {
            request = ctx.method() + " " + ctx.path();
        } catch (RuntimeException ended) {
            // A request the server already let go of (it stopped under it) has no path left to name.
            request = "a request that had ended";
        }
        LOG.error("Unhandled error on {}, error id {}", request, errorId, e);
        return ApiError.internal(errorId);
    }
}
