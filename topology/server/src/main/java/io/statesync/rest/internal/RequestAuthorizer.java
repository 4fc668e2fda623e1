package io.statesync.rest.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Set;

import io.javalin.http.Context;
import io.statesync.rest.ApiError;
import io.statesync.rest.TokenAuth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may do what on the REST port. Probes, metrics, the API description and the web UI's static files stay open;
 * everything else needs reader, and writes need writer. A read another instance forwards carries that instance's
 * signed credential and the caller's role instead of the caller's token.
 */
public final class RequestAuthorizer {

    private static final Logger LOG = LoggerFactory.getLogger(RequestAuthorizer.class);
    private static final Set<String> OPEN_PATHS = Set.of("/healthz", "/livez", "/readyz", "/metrics", "/openapi.json");

    private final TokenAuth auth;
    private final ForwardCredential forwards;

    public RequestAuthorizer(TokenAuth auth, ForwardCredential forwards) {
        this.auth = auth;
        this.forwards = forwards;
    }

    /** A before-handler of every request: 401 or 403 unless the caller may do what it asks. */
    public void authorize(Context ctx) {
        // First, and whatever the path: only a verified signature marks a request as another instance's forward.
        String forwardedRole = forwards.verify(ctx);
        if (!auth.enabled() || OPEN_PATHS.contains(ctx.path()) || ctx.method().name().equals("GET") && UiFiles.isUiPath(ctx.path())) {
            return;
        }
        String m = ctx.method().name();
        boolean write = !(m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS"));
        if (forwardedRole != null) {
            if (write && !forwardedRole.equals("writer")) {
                throw ApiError.forbidden("this token has the reader role; writes need writer");
            }
            return;
        }
        auth.require(ctx.header("Authorization"), write ? TokenAuth.Role.WRITER : TokenAuth.Role.READER);
    }

    /** What the caller's token may do, so that a client (the web UI) shows a reader no write controls. */
    public void whoami(Context ctx) {
        boolean writer = !auth.enabled() || auth.roleOf(ctx.header("Authorization")) == TokenAuth.Role.WRITER;
        ctx.json(Map.of("authEnabled", auth.enabled(), "role", writer ? "writer" : "reader"));
    }

    /** Refuses to start an open API on an address other than loopback. */
    public void requireLoopbackWithoutAuth(String host) {
        if (auth.enabled()) {
            return;
        }
        try {
            if (!InetAddress.getByName(host).isLoopbackAddress()) {
                throw new IllegalStateException("http.host=" + host + " is not a loopback address and no auth tokens are configured;"
                    + " configure auth.tokens or auth.tokens.file, or bind to 127.0.0.1");
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException("Cannot resolve http.host=" + host, e);
        }
        LOG.warn("No auth tokens configured: the REST API is open, bound to loopback {} only", host);
    }
}
