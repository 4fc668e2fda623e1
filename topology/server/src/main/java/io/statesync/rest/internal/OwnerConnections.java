package io.statesync.rest.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import org.apache.kafka.streams.state.HostInfo;

/**
 * Sends forwarded owner reads (diffs, diagnoses, and point reads the view cannot answer) to their owners: HTTP/1.1 GETs
 * over plain blocking sockets, kept alive and pooled per
 * owner. The request thread writes the request and reads the answer itself. {@code java.net.http.HttpClient} hands
 * every call to its selector and executor threads and back, and on two cores those hand-offs, not the network, bound
 * how many forwarded reads an instance can relay. The owner's answer is relayed as received: nothing is decoded.
 */
public final class OwnerConnections implements AutoCloseable {

    /** Idle connections kept per owner; one per concurrent forward is enough, more would only wait for the idle timeout. */
    static final int MAX_IDLE_PER_OWNER = 64;

    private final int connectTimeoutMs;
    private final int readTimeoutMs;
    private final Map<HostInfo, Deque<OwnerConnection>> idle = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public OwnerConnections(int connectTimeoutMs, int readTimeoutMs) {
        this.connectTimeoutMs = connectTimeoutMs;
        this.readTimeoutMs = readTimeoutMs;
    }

    /** The owner's answer to {@code GET pathAndQuery}, marked as forwarded so that the owner never forwards it again. */
    public KeyRouter.Forwarded get(HostInfo owner, String pathAndQuery, String authorization) throws IOException {
        byte[] request = request(owner, pathAndQuery, authorization);
        Deque<OwnerConnection> pool = idle.computeIfAbsent(owner, o -> new ConcurrentLinkedDeque<>());
        OwnerConnection reused = pool.pollFirst();
        if (reused != null) {
            try {
                return exchange(pool, reused, request);
            } catch (OwnerConnection.StaleConnectionException e) {
                // The owner closed this idle connection before the request reached it; a GET is safe to send again.
                reused.close();
            }
        }
        return exchange(pool, OwnerConnection.open(owner, connectTimeoutMs, readTimeoutMs), request);
    }

    private KeyRouter.Forwarded exchange(Deque<OwnerConnection> pool, OwnerConnection conn, byte[] request) throws IOException {
        KeyRouter.Forwarded answer;
        try {
            answer = conn.exchange(request);
        } catch (IOException | RuntimeException e) {
            conn.close();
            throw e;
        }
        if (conn.reusable() && !closed && pool.size() < MAX_IDLE_PER_OWNER) {
            pool.offerFirst(conn);
        } else {
            conn.close();
        }
        return answer;
    }

    private static byte[] request(HostInfo owner, String pathAndQuery, String authorization) {
        StringBuilder sb = new StringBuilder(160 + pathAndQuery.length())
            .append("GET ").append(pathAndQuery).append(" HTTP/1.1\r\nHost: ").append(owner.host()).append(':')
            .append(owner.port()).append("\r\n").append(KeyRouter.FORWARDED_HEADER).append(": 1\r\n");
        if (authorization != null) {
            sb.append("Authorization: ").append(authorization).append("\r\n");
        }
        return sb.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Closes every idle connection; a forward in flight closes its own when it ends. */
    @Override
    public void close() {
        closed = true;
        for (Deque<OwnerConnection> pool : idle.values()) {
            for (OwnerConnection c = pool.pollFirst(); c != null; c = pool.pollFirst()) {
                c.close();
            }
        }
    }

    /** Idle connections to {@code owner}, for tests. */
    int idleCount(HostInfo owner) {
        Deque<OwnerConnection> pool = idle.get(owner);
        return pool == null ? 0 : pool.size();
    }
}
