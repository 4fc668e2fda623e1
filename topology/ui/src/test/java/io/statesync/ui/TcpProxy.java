package io.statesync.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay between the browser and the instance, so that a test can cut every open connection (the watch stream
 * among them) and refuse new ones for a while, as a network failure would, without touching the instance.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean refusing;

    TcpProxy(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "ui-it-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Closes every relayed connection and, until {@link #restore}, every new one as soon as it is accepted. */
    void cut() {
        refusing = true;
        open.forEach(TcpProxy::closeQuietly);
    }

    void restore() {
        refusing = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (refusing) {
                    closeQuietly(client);
                    continue;
                }
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(client);
                open.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // The server socket closed, or the instance refused one connection: the browser sees it dropped.
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16_384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // One side closed; the other is closed below so the browser notices.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "ui-it-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        cut();
    }
}
