package io.statesync.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay in front of a server, so that a test can cut a client's connections ({@link #cut}) or take the server
 * away and bring it back on the same port ({@link #stop}, {@link #start}) while the server itself keeps running (or
 * is restarted behind it on its own port). Shared by every module's tests that need to break a connection.
 */
public final class TcpRelay implements AutoCloseable {

    private final InetAddress host = InetAddress.getLoopbackAddress();
    private final int targetPort;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile ServerSocket listener;

    public TcpRelay(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, host);
        this.port = listener.getLocalPort();
        acceptOn(listener);
    }

    /** The port clients connect to; it stays the same across {@link #stop} and {@link #start}. */
    public int port() {
        return port;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Connections accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    /** Drops every open connection, as a network failure would; new ones are still accepted. */
    public void cut() {
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    /** Stops listening and drops every connection: connecting is refused until {@link #start}. */
    public void stop() {
        closeQuietly(listener);
        cut();
    }

    /** Listens again on the same port. */
    public void start() throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(host, port), 50);
        listener = s;
        acceptOn(s);
    }

    private void acceptOn(ServerSocket s) {
        Thread t = new Thread(() -> {
            while (!s.isClosed()) {
                try {
                    relay(s.accept());
                } catch (IOException e) {
                    // Closed by stop(), or one connection failed; the loop checks which.
                }
            }
        }, "tcp-relay-accept");
        t.setDaemon(true);
        t.start();
    }

    private void relay(Socket client) throws IOException {
        accepted.incrementAndGet();
        open.add(client);
        Socket server;
        try {
            server = new Socket(host, targetPort);
        } catch (IOException e) {
            closeQuietly(client);
            throw e;
        }
        open.add(server);
        pump(client, server);
        pump(server, client);
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16_384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // The other side or cut() closed the connection.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-relay-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // Closing is all that was wanted.
        }
    }

    @Override
    public void close() {
        stop();
    }
}
