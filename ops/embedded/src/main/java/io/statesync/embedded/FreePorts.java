package io.statesync.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Picks loopback ports for child processes, which must be told their port before they start. */
public final class FreePorts {
    private FreePorts() {
    }

    /** {@code requested} itself, or a currently free loopback port when {@code requested} is 0. */
    public static int resolve(int requested) {
        return requested != 0 ? requested : pick();
    }

    /** A port that was free a moment ago; another process may take it before the child binds it, which is rare. */
    public static int pick() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free loopback port", e);
        }
    }

    /** Whether something already listens on the loopback {@code port}. */
    public static boolean inUse(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
