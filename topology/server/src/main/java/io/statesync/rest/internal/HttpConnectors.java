package io.statesync.rest.internal;

import java.util.concurrent.locks.ReentrantLock;

import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * The HTTP/1.1 connections of every listener (the REST port, plain or TLS, and the probe port), whose read loop runs
 * on one thread at a time.
 *
 * <p>Jetty's own loop does not ensure that for a request it cannot parse (a header block too large, a malformed
 * request line): the thread that parsed it hands the error answer to another thread and only then lets go of the
 * connection's request buffer, while the answer, once written, starts the read loop again on a third thread. That
 * loop can fill the buffer with the rest of the client's request after the buffer went back to the pool shared by
 * all connections, and by then another connection may hold it as the buffer of its own answer or request: one
 * client would read another's header lines, tokens included, or have them spliced into its request. Holding a lock
 * for the whole loop makes the restarted loop wait until the first has let go of the buffer, so it takes a buffer of
 * its own. Jetty starts a loop again only once a request is done, so otherwise the lock is free, or held by a loop
 * that is returning.
 */
public final class HttpConnectors {

    private HttpConnectors() {
    }

    /** The plain-text REST connector, in place of the one Javalin would add. */
    public static Connector plain(Server server, HttpConfiguration http, String host, int port) {
        return plain(server, null, http, host, port);
    }

    /** As {@link #plain(Server, HttpConfiguration, String, int)}, with {@code buffers} in place of the server's pool. */
    static ServerConnector plain(Server server, ByteBufferPool buffers, HttpConfiguration http, String host, int port) {
        ServerConnector connector = new ServerConnector(server, null, null, buffers, -1, -1, http11(http));
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }

    /** The HTTP/1.1 connection factory every listener uses, alone or behind TLS. */
    public static HttpConnectionFactory http11(HttpConfiguration http) {
        return new OneReaderConnectionFactory(http);
    }

    private static final class OneReaderConnectionFactory extends HttpConnectionFactory {

        OneReaderConnectionFactory(HttpConfiguration http) {
            super(http);
        }

        @Override
        public Connection newConnection(Connector connector, EndPoint endPoint) {
            OneReaderConnection connection = new OneReaderConnection(getHttpConfiguration(), connector, endPoint);
            connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
            return configure(connection, connector, endPoint);
        }
    }

    /**
     * Every entry into the read loop goes through {@link #onFillable}: a read that became possible, a loop started
     * again on the executor once a request is done ({@code run}), and the first read of a new connection.
     */
    private static final class OneReaderConnection extends HttpConnection {

        private final ReentrantLock reading = new ReentrantLock();

        OneReaderConnection(HttpConfiguration http, Connector connector, EndPoint endPoint) {
            super(http, connector, endPoint);
        }

        @Override
        public void onFillable() {
            reading.lock();
            try {
                super.onFillable();
            } finally {
                reading.unlock();
            }
        }
    }
}
