package io.statesync.rest;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * A further API that an instance serves beside its own, found on the class path with {@link java.util.ServiceLoader}
 * when the server binds (a {@code META-INF/services/io.statesync.rest.RestExtension} entry), so that the server does
 * not depend on it. The Kubernetes API (module topology/kube) is one.
 *
 * <p>An extension reaches the instance only through {@link RestContext}: the same admission, reads, watches and
 * auth as the server's own API, never a second implementation of them.
 */
public interface RestExtension {

    /** Registers the extension's routes; called once, while the server configures Javalin. */
    void register(RoutesConfig routes, RestContext context);

    /**
     * Renders {@code error} for a request of this extension's paths in its own error shape (auth failures and unknown
     * routes included) and returns true; false leaves the server's own shape.
     */
    default boolean renderError(Context ctx, ApiError error) {
        return false;
    }
}
