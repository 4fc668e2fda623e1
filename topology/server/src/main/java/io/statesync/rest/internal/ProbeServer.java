package io.statesync.rest.internal;

import java.nio.ByteBuffer;
import java.util.function.Function;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The probe listener ({@code probe.port}): a Jetty server of its own, with its own few threads, that answers the
 * liveness and readiness probes only. The REST port's threads can all be held by clients (open watches, slow
 * requests); these cannot, so an orchestrator's probe is never starved into restarting a busy but healthy instance.
 * It holds no routes, no auth and no request body: an answer is computed from the instance's state and written.
 */
public final class ProbeServer implements AutoCloseable {

    /** An answer to a probe: its status and JSON body. */
    public record Answer(int status, byte[] json) {
    }

    private static final int MAX_THREADS = 8;
    private static final long IDLE_TIMEOUT_MS = 5_000;

    private final Server server;
    private final ServerConnector connector;

    /** {@code answers} maps a request path to its answer, or null for a path that is not a probe (404). */
    public ProbeServer(String host, int port, Function<String, Answer> answers) {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
        threads.setName("statesync-probes");
        threads.setDaemon(true);
        server = new Server(threads);
        connector = new ServerConnector(server, 1, 1, HttpConnectors.http11(new HttpConfiguration()));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Answer a = answers.apply(Request.getPathInContext(request));
                if (a == null || !"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
                    a = new Answer(404, "{\"code\":404,\"reason\":\"NotFound\",\"message\":\"the probe port serves GET /livez, /healthz and /readyz only\"}"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                response.setStatus(a.status());
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
                response.write(true, ByteBuffer.wrap(a.json()), callback);
                return true;
            }
        });
    }

    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the probe listener on port " + connector.getPort() + ": " + e.getMessage(), e);
        }
    }

    /** The port bound. */
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
