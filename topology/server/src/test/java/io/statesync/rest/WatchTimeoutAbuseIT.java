package io.statesync.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Watches held open by clients that say and read nothing more once their watch is admitted: without a timeoutSeconds
 * each would keep its place under watch.max.open for as long as its connection lives. The server ends them after a
 * random time between watch.min.request.timeout.ms and twice that, as the Kubernetes apiserver does.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class WatchTimeoutAbuseIT {

    private static final long MIN_REQUEST_TIMEOUT_MS = 3_000;
    private static final int MAX_OPEN = 3;
    /** What a loaded machine may add to the end of a watch: the stream checks its deadline every half second. */
    private static final long SLACK_MS = 3_000;
    /** The last chunk of a chunked answer: the clean end of a stream. */
    private static final String CHUNKED_END = "\r\n0\r\n\r\n";

    private RestTestApp app;
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void closeSocketsAndApp() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void shouldEndSilentWatchesWithoutTimeoutSecondsBetweenTheMinimumAndTwiceItAndAdmitNewOnes() throws Exception {
        Map<String, Object> config = RestTestApp.config("watch-timeout", RestTestApp.prefix("watch-timeout"));
        config.put(ServerConfig.WATCH_MAX_OPEN, MAX_OPEN);
        config.put(ServerConfig.WATCH_MIN_REQUEST_TIMEOUT_MS, MIN_REQUEST_TIMEOUT_MS);
        app = RestTestApp.start(config);
        assertThat(app.put("/api/v1/resources/Quiet/default/a", Map.of("spec", Map.of("n", 1))).statusCode()).isBetween(200, 201);
        String timedOut = readToEnd(admitted("/api/v1/watch?kind=Quiet&timeoutSeconds=1"));
        assertThat(timedOut).as("how a watch ends when its timeoutSeconds expires").endsWith(CHUNKED_END);

        admitted("/api/v1/watch?kind=Quiet&timeoutSeconds=60");
        long t0 = System.nanoTime();
        Socket withoutTimeout = admitted("/api/v1/watch?kind=Quiet");
        Socket withZero = admitted("/api/v1/watch?kind=Quiet&timeoutSeconds=0");
        assertThat(attempt("/api/v1/watch?kind=Quiet")).as("the cap is reached").startsWith("HTTP/1.1 429");

        long first = awaitAdmission(t0);
        long second = awaitAdmission(t0);
        assertThat(first).as("no watch ends before watch.min.request.timeout.ms").isGreaterThanOrEqualTo(MIN_REQUEST_TIMEOUT_MS);
        assertThat(second).as("both end by twice it").isLessThanOrEqualTo(2 * MIN_REQUEST_TIMEOUT_MS + SLACK_MS);

        // The watch that asked for 60 s still holds its place past twice the minimum: a given timeout is not capped.
        Thread.sleep(Math.max(0, 2 * MIN_REQUEST_TIMEOUT_MS + SLACK_MS - elapsedMs(t0)));
        assertThat(attempt("/api/v1/watch?kind=Quiet")).as("timeoutSeconds=60 kept as given").startsWith("HTTP/1.1 429");

        for (Socket silent : List.of(withoutTimeout, withZero)) {
            String stream = readToEnd(silent);
            assertThat(stream).as("ends as an expired timeoutSeconds does").endsWith(CHUNKED_END).contains("event: BOOKMARK")
                .doesNotContain("event: ERROR");
        }
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    /** Milliseconds after {@code t0} at which a watch is next admitted, trying every 100 ms; the socket is kept open. */
    private long awaitAdmission(long t0) throws IOException, InterruptedException {
        while (elapsedMs(t0) < 2 * MIN_REQUEST_TIMEOUT_MS + 2 * SLACK_MS) {
            Socket s = RawWatches.open(app.base, "/api/v1/watch?kind=Quiet&timeoutSeconds=60", RestTestApp.WRITER, 0);
            s.setSoTimeout(10_000);
            String head = RawWatches.readHead(s.getInputStream());
            if (head.startsWith("HTTP/1.1 200")) {
                sockets.add(s);
                return elapsedMs(t0);
            }
            assertThat(head).startsWith("HTTP/1.1 429");
            s.close();
            Thread.sleep(100);
        }
        throw new AssertionError("no watch was admitted within " + elapsedMs(t0) + " ms");
    }

    private static long elapsedMs(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** A watch the server admits, whose answer is then left unread; closed after the test. */
    private Socket admitted(String path) throws IOException {
        Socket s = RawWatches.open(app.base, path, RestTestApp.WRITER, 0);
        s.setSoTimeout(10_000);
        sockets.add(s);
        assertThat(RawWatches.readHead(s.getInputStream())).as(path).startsWith("HTTP/1.1 200");
        return s;
    }

    /** The head of the answer to a watch, closed at once. */
    private String attempt(String path) throws IOException {
        try (Socket s = RawWatches.open(app.base, path, RestTestApp.WRITER, 0)) {
            s.setSoTimeout(10_000);
            return RawWatches.readHead(s.getInputStream());
        }
    }

    /** What arrived on {@code s} (after the head) until the answer's last chunk, or until nothing more comes. */
    private static String readToEnd(Socket s) throws IOException {
        s.setSoTimeout(5_000);
        InputStream in = s.getInputStream();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            int n;
            while (!body.toString(StandardCharsets.UTF_8).endsWith(CHUNKED_END) && (n = in.read(buf)) >= 0) {
                body.write(buf, 0, n);
            }
        } catch (SocketTimeoutException stillOpen) {
            // The stream has not ended: what arrived is returned, and the caller's check fails on it.
        }
        return body.toString(StandardCharsets.UTF_8);
    }
}
