package io.statesync.rest.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.javalin.Javalin;
import io.statesync.rest.ApiError;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request Jetty cannot parse (here one whose header block is too large) must not let its connection's bytes reach
 * another connection. Jetty answers such a request from another thread, and the written answer starts the
 * connection's read loop again while the thread that parsed it may not yet have let go of the request buffer. On a
 * loaded machine that thread can lose the processor right there; the test stands in for the scheduler and holds it
 * at that point until the restarted loop is about to fill, then lets it go on, so that the interleaving happens on
 * every such request instead of rarely. The clients send requests with a header block too large and requests with
 * malformed JSON, each on a socket of its own, against a server wired as the REST server is (same connectors, same
 * error handler, the API's body reader).
 */
class HttpConnectorsTest {

    private static final int REQUESTS = 400;
    private static final int CLIENTS = 16;
    /** How long a held thread waits for the other side of the interleaving before it goes on alone. */
    private static final long HOLD_MS = 100;
    private static final String LARGE_HEADER = "X-Many-";

    private final Map<HttpConnection, Hold> holds = new ConcurrentHashMap<>();
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger filledAfterRelease = new AtomicInteger();

    @Test
    void everyAnswerBelongsToItsOwnConnection() throws Exception {
        Javalin app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.startup.startupWatcherEnabled = false;
            cfg.jetty.threadPool = new HoldingThreads();
            JsonErrorHandler errors = new JsonErrorHandler();
            cfg.jetty.modifyServer(server -> server.setErrorHandler(errors));
            cfg.jetty.modifyServletContextHandler(context -> context.setErrorHandler(errors));
            cfg.jetty.addConnector((server, http) -> HttpConnectors.plain(server, new WatchedBuffers(server.getByteBufferPool()), http,
                "127.0.0.1", 0));
            cfg.routes.exception(ApiError.class, (e, ctx) -> ctx.status(e.code()).json(e.body()));
            cfg.routes.put("/api/v1/resources/{kind}/{namespace}/{name}", ctx -> BodyReader.json(ctx, 65_536));
        });
        app.start();
        List<String> findings = Collections.synchronizedList(new ArrayList<>());
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        try {
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                running.add(clients.submit(() -> {
                    for (int n; (n = next.getAndIncrement()) < REQUESTS; ) {
                        exchange(app.port(), n, statuses, findings);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(120, TimeUnit.SECONDS);
            }
            clients.shutdown();
        } finally {
            app.stop();
        }

        assertThat(held.get()).as("unparsable requests whose parsing thread was held").isPositive();
        assertThat(statuses).as("answers by status").containsKeys(400, 431);
        assertThat(findings).as("answers that hold bytes of another connection").isEmpty();
        assertThat(filledAfterRelease.get()).as("request buffers filled after they went back to the pool").isZero();
    }

    private static void exchange(int port, int n, Map<Integer, Integer> statuses, List<String> findings) {
        boolean largeHeaders = n % 2 == 0;
        StringBuilder head = new StringBuilder("PUT /api/v1/resources/WebApp/default/r").append(n).append(" HTTP/1.1\r\n")
            .append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\nContent-Type: application/json\r\n");
        String body = "{\"spec\":{\"replicas\":[[[";
        if (largeHeaders) {
            for (int i = 0; i < 400; i++) {
                head.append(LARGE_HEADER).append(i).append(": r").append(n).append('-').append("y".repeat(56)).append("\r\n");
            }
        }
        head.append("Content-Length: ").append(body.length()).append("\r\n\r\n").append(body);
        byte[] answer;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(30_000);
            try {
                s.getOutputStream().write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            } catch (IOException answeredEarly) {
                // The server may answer a header block too large and close before taking all of it.
            }
            answer = readAll(s.getInputStream());
        } catch (IOException e) {
            findings.add("request " + n + ": no answer: " + e);
            return;
        }
        String text = new String(answer, StandardCharsets.ISO_8859_1);
        int status = text.matches("(?s)HTTP/1\\.1 \\d{3} .*") ? Integer.parseInt(text.substring(9, 12)) : -1;
        statuses.merge(status, 1, Integer::sum);
        if (text.contains(LARGE_HEADER) || status != (largeHeaders ? 431 : 400) && !(largeHeaders && answer.length == 0)) {
            findings.add("request " + n + " (" + (largeHeaders ? "header block too large" : "malformed JSON") + ") was answered: "
                + text.substring(0, Math.min(text.length(), 200)).replace("\r\n", "|"));
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[16_384];
        try {
            for (int r; (r = in.read(buf)) >= 0; ) {
                out.write(buf, 0, r);
            }
        } catch (SocketException reset) {
            // What arrived before a reset is the answer.
        }
        return out.toByteArray();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(HOLD_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The thread that parsed an unparsable request, held until its connection's restarted read loop is about to fill. */
    private record Hold(Thread parser, CountDownLatch restartedLoopFilling) {
    }

    /**
     * Jetty hands the answer to an unparsable request on with {@code tryExecute}; this always hands it to a pool
     * thread and then holds the handing thread, as a scheduler that took the processor from it would.
     */
    private final class HoldingThreads extends QueuedThreadPool {

        HoldingThreads() {
            super(250, 8);
        }

        @Override
        public boolean tryExecute(Runnable task) {
            HttpConnection connection = HttpConnection.getCurrentConnection();
            if (connection == null || !handingOnABadMessage()) {
                return super.tryExecute(task);
            }
            Hold hold = new Hold(Thread.currentThread(), new CountDownLatch(1));
            holds.put(connection, hold);
            held.incrementAndGet();
            execute(task);
            await(hold.restartedLoopFilling());
            holds.remove(connection, hold);
            return true;
        }

        private static boolean handingOnABadMessage() {
            return StackWalker.getInstance().walk(frames -> frames.limit(12).anyMatch(f -> f.getMethodName().equals("badMessage")));
        }
    }

    /** The server's pool, whose buffers tell when a read loop fills one that is no longer its connection's. */
    private final class WatchedBuffers extends ByteBufferPool.Wrapper {

        /** The last holder of each pooled buffer, by identity: a ByteBuffer's equals compares contents. */
        private final Map<ByteBuffer, Watched> holders = Collections.synchronizedMap(new IdentityHashMap<>());

        WatchedBuffers(ByteBufferPool pool) {
            super(pool);
        }

        @Override
        public RetainableByteBuffer.Mutable acquire(int size, boolean direct) {
            RetainableByteBuffer.Mutable buffer = super.acquire(size, direct);
            Watched watched = new Watched(buffer, Thread.currentThread());
            Watched previous = holders.put(buffer.getByteBuffer(), watched);
            if (previous != null) {
                previous.handedOnAgain.countDown();
            }
            return watched;
        }
    }

    private final class Watched extends RetainableByteBuffer.Wrapper implements RetainableByteBuffer.Mutable {

        private final Thread acquiredBy;
        private final CountDownLatch released = new CountDownLatch(1);
        private final CountDownLatch handedOnAgain = new CountDownLatch(1);

        Watched(RetainableByteBuffer.Mutable buffer, Thread acquiredBy) {
            super(buffer);
            this.acquiredBy = acquiredBy;
        }

        @Override
        public boolean release() {
            boolean last = super.release();
            if (last) {
                released.countDown();
            }
            return last;
        }

        /**
         * A read loop takes the ByteBuffer to fill it. The restarted loop of a held connection, about to fill the
         * buffer the held thread acquired, lets that thread go on, and fills once the buffer went back to the pool
         * and to another holder (each wait bounded): what a fill then writes lands in another connection's buffer.
         */
        @Override
        public ByteBuffer getByteBuffer() {
            HttpConnection connection = HttpConnection.getCurrentConnection();
            Hold hold = connection == null ? null : holds.get(connection);
            if (hold != null && hold.parser() != Thread.currentThread() && hold.parser() == acquiredBy && holds.remove(connection, hold)) {
                hold.restartedLoopFilling().countDown();
                await(released);
                if (released.getCount() == 0) {
                    filledAfterRelease.incrementAndGet();
                    await(handedOnAgain);
                }
            }
            return super.getByteBuffer();
        }
    }
}
