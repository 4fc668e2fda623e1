package io.statesync.rest.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forward's client against a scripted owner on a loopback socket: each accepted connection answers the
 * requests it reads with the next scripted answers, then closes when the script says so.
 */
class OwnerConnectionsTest {

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"7\"\r\n"
        + "X-Statesync-Served-By: b:1\r\nContent-Length: 9\r\n\r\n{\"a\":\"b\"}";

    private ScriptedOwner owner;
    private final ForwardCredential credential = new ForwardCredential(new byte[] {1, 2, 3}, () -> 1_000_000L);
    private final OwnerConnections connections = new OwnerConnections(2_000, 5_000, credential, null);

    @BeforeEach
    void start() throws IOException {
        owner = new ScriptedOwner();
    }

    @AfterEach
    void stop() throws IOException {
        connections.close();
        owner.close();
    }

    @Test
    void shouldRelayTheOwnersAnswerAndReuseOneConnection() throws Exception {
        owner.answers(OK, OK);
        KeyRouter.Forwarded first = connections.get(owner.host(), "/api/v1/resources/K/ns/a?consistency=owner", "writer");
        KeyRouter.Forwarded second = connections.get(owner.host(), "/api/v1/resources/K/ns/a", "reader");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.bodyText()).isEqualTo("{\"a\":\"b\"}");
        assertThat(first.etag()).isEqualTo("\"7\"");
        assertThat(first.servedBy()).isEqualTo("b:1");
        assertThat(first.contentType()).isEqualTo("application/json");
        assertThat(first.stale()).isFalse();
        assertThat(second.bodyText()).isEqualTo("{\"a\":\"b\"}");
        assertThat(owner.accepted).hasValue(1);
        assertThat(owner.requests.get(0)).startsWith("GET /api/v1/resources/K/ns/a?consistency=owner HTTP/1.1\r\n")
            .contains("\r\nX-Statesync-Forwarded: 1\r\n").contains("\r\nX-Statesync-Forwarded-Role: writer\r\n");
        assertThat(owner.requests.get(1)).contains("\r\nX-Statesync-Forwarded-Role: reader\r\n");
    }

    @Test
    void shouldSignEachForwardWithTheInstanceCredentialAndNeverSendTheCallersToken() throws Exception {
        owner.answers(OK);
        connections.get(owner.host(), "/api/v1/resources/K/ns/a/diff?x=1", "reader");
        String request = owner.requests.get(0);
        assertThat(request).doesNotContainIgnoringCase("Authorization").doesNotContain("Bearer");
        String signature = request.lines().filter(l -> l.startsWith(ForwardCredential.SIGNATURE_HEADER + ": ")).findFirst()
            .orElseThrow().substring(ForwardCredential.SIGNATURE_HEADER.length() + 2);
        assertThat(credential.verifies(signature, "reader", "GET", "/api/v1/resources/K/ns/a/diff?x=1")).isTrue();
        assertThat(credential.verifies(signature, "writer", "GET", "/api/v1/resources/K/ns/a/diff?x=1"))
            .as("the role is signed: a forward cannot be raised to writer").isFalse();
        assertThat(credential.verifies(signature, "reader", "GET", "/api/v1/resources/K/ns/b/diff?x=1"))
            .as("the path is signed: a forward cannot be moved to another key").isFalse();
    }

    @Test
    void shouldReadAChunkedAnswerWithItsStaleMark() throws Exception {
        owner.answers("HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\nRetry-After: 1\r\n"
            + "X-Statesync-Stale: true\r\n\r\n4\r\n{\"m\"\r\n5;x=y\r\n:\"n\"}\r\n0\r\n\r\n", OK);
        KeyRouter.Forwarded answer = connections.get(owner.host(), "/x", "reader");
        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.bodyText()).isEqualTo("{\"m\":\"n\"}");
        assertThat(answer.retryAfter()).isEqualTo("1");
        assertThat(answer.stale()).isTrue();
        assertThat(connections.get(owner.host(), "/x", "reader").bodyText()).isEqualTo("{\"a\":\"b\"}");
        assertThat(owner.accepted).hasValue(1);
    }

    @Test
    void shouldSendAgainOnANewConnectionWhenTheOwnerClosedAnIdleOne() throws Exception {
        owner.closeAfterEachAnswer = true;
        owner.answers(OK, OK);
        connections.get(owner.host(), "/x", "reader");
        assertThat(connections.idleCount(owner.host())).isEqualTo(1);
        KeyRouter.Forwarded again = connections.get(owner.host(), "/x", "reader");
        assertThat(again.status()).isEqualTo(200);
        assertThat(owner.accepted).hasValue(2);
    }

    @Test
    void shouldNotKeepAConnectionTheOwnerCloses() throws Exception {
        owner.answers("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
            "HTTP/1.1 200 OK\r\n\r\n{\"until\":\"closed\"}");
        owner.closeAfterEachAnswer = true;
        assertThat(connections.get(owner.host(), "/x", "reader").status()).isEqualTo(404);
        assertThat(connections.idleCount(owner.host())).isZero();
        KeyRouter.Forwarded untilClosed = connections.get(owner.host(), "/x", "reader");
        assertThat(untilClosed.bodyText()).isEqualTo("{\"until\":\"closed\"}");
        assertThat(untilClosed.contentType()).isEqualTo("application/json");
        assertThat(connections.idleCount(owner.host())).isZero();
    }

    @Test
    void shouldAnswerNotModifiedWithoutWaitingForABody() throws Exception {
        owner.answers("HTTP/1.1 304 Not Modified\r\nETag: \"7\"\r\n\r\n", OK);
        assertThat(connections.get(owner.host(), "/x", "reader").status()).isEqualTo(304);
        assertThat(connections.get(owner.host(), "/x", "reader").status()).isEqualTo(200);
        assertThat(owner.accepted).hasValue(1);
    }

    /** A loopback server that plays scripted answers, one per request it reads, in order. */
    private static final class ScriptedOwner implements AutoCloseable {
        final AtomicInteger accepted = new AtomicInteger();
        final List<String> requests = new CopyOnWriteArrayList<>();
        final BlockingQueue<String> script = new LinkedBlockingQueue<>();
        volatile boolean closeAfterEachAnswer;
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final Thread acceptor = new Thread(this::serve, "scripted-owner");

        ScriptedOwner() throws IOException {
            acceptor.setDaemon(true);
            acceptor.start();
        }

        HostInfo host() {
            return new HostInfo(InetAddress.getLoopbackAddress().getHostAddress(), server.getLocalPort());
        }

        void answers(String... answers) {
            script.addAll(List.of(answers));
        }

        private void serve() {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    accepted.incrementAndGet();
                    answerUntilClosed(s);
                } catch (IOException e) {
                    // the test closed the server, or the client closed its side
                }
            }
        }

        private void answerUntilClosed(Socket s) throws IOException {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            for (String request = readHead(in); request != null; request = readHead(in)) {
                requests.add(request);
                String answer = script.poll();
                out.write((answer == null ? "HTTP/1.1 500 Unscripted\r\nContent-Length: 0\r\n\r\n" : answer)
                    .getBytes(StandardCharsets.UTF_8));
                out.flush();
                if (closeAfterEachAnswer) {
                    return;
                }
            }
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            for (int b = in.read(); b >= 0; b = in.read()) {
                head.write(b);
                matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
                if (matched == 4) {
                    return head.toString(StandardCharsets.UTF_8);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
