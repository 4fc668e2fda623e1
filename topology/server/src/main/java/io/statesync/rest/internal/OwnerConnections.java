package io.statesync.rest.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import javax.net.ssl.SSLSocketFactory;

import org.apache.kafka.streams.state.HostInfo;

/**
 * Sends forwarded owner reads (diffs, diagnoses, and point reads the view cannot answer) to their owners: HTTP/1.1 GETs
 * over blocking sockets (TLS ones when the REST port is HTTPS), kept alive and pooled per owner. A forward carries the
 * instances' own signed credential ({@link ForwardCredential}), never the caller's token. The request thread writes the request and reads the answer itself. {@code java.net.http.HttpClient} hands
 * every call to its selector and executor threads and back, and on two cores those hand-offs, not the network, bound
 * how many forwarded reads an instance can relay. The owner's answer is relayed as received: nothing is decoded.
 */
public final class OwnerConnections implements AutoCloseable {

    /** Idle connections kept per owner; one per concurrent forward is enough, more would only wait for the idle timeout. */
    static final int MAX_IDLE_PER_OWNER = 64;

    private final int connectTimeoutMs;
    private final int readTimeoutMs;
    private final ForwardCredential credential;
    private final SSLSocketFactory tls;
    private final Map<HostInfo, Deque<OwnerConnection>> idle = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** @param tls the factory of TLS sockets to owners, or null for plain ones */
    public OwnerConnections(int connectTimeoutMs, int readTimeoutMs, ForwardCredential credential, SSLSocketFactory tls) {
        this.connectTimeoutMs = connectTimeoutMs;
        this.readTimeoutMs = readTimeoutMs;
        this.credential = credential;
        this.tls = tls;
    }

    /**
     * The owner's answer to {@code GET pathAndQuery} for a caller of {@code role} ({@code reader} or {@code writer}),
     * signed as a forward so that the owner trusts it without a token and never forwards it again.
     */
    public KeyRouter.Forwarded get(HostInfo owner, String pathAndQuery, String role) throws IOException {
        byte[] request = request(owner, pathAndQuery, role);
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
        return exchange(pool, OwnerConnection.open(owner, connectTimeoutMs, readTimeoutMs, tls), request);
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

    private byte[] request(HostInfo owner, String pathAndQuery, String role) {
        return new StringBuilder(320 + pathAndQuery.length())
            .append("GET ").append(pathAndQuery).append(" HTTP/1.1\r\nHost: ").append(owner.host()).append(':')
            .append(owner.port()).append("\r\n").append(credential.headerLines(pathAndQuery, role)).append("\r\n")
            .toString().getBytes(StandardCharsets.UTF_8);
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
