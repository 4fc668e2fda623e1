package io.statesync.rest;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An anonymous client floods the REST port with WebSocket upgrade requests on paths that have no WebSocket route.
 * Javalin opens an HTTP session for every upgrade before any handler runs, even one it answers 404, and no
 * before-handler (so no token check) sees it; a session the server kept would be heap anyone could fill, one per
 * request. Every upgrade must get the API's 404, no session may outlive its request, and no answer may set a cookie.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class UpgradeFloodAbuseIT {

    private static final int REQUESTS = 10_000;
    private static final int PROBE_REQUESTS = 200;
    private static final int CLIENTS = 4;

    private static RestTestApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RestTestApp.start(RestTestApp.config("upgrade-flood", RestTestApp.prefix("upgrade-flood")));
    }

    @AfterAll
    static void stop() {
        RestTestApp.closeAll(app);
    }

    @Test
    void shouldKeepNoSessionAndSetNoCookieWhenAnAnonymousClientFloodsUpgradesOfPathsWithoutAWebSocketRoute() throws Exception {
        SessionHandler sessions = app.app.restServer().jetty().getDescendant(SessionHandler.class);
        // The ids of the sessions Javalin opened, to ask the server afterwards which of them it still holds.
        Set<String> opened = ConcurrentHashMap.newKeySet();
        sessions.addEventListener(new HttpSessionListener() {
            @Override
            public void sessionCreated(HttpSessionEvent event) {
                opened.add(event.getSession().getId());
            }
        });
        // A path with no route at all, and a REST route that answers a plain GET.
        Tally rest = flood(app.app.httpPort(), REQUESTS, i -> i % 2 == 0 ? "/api/v1/no-such-route/" + i : "/api/v1/resources");
        Tally probes = flood(app.app.restServer().probePort(), PROBE_REQUESTS, i -> "/livez");

        long held = 0;
        for (String id : opened) {
            if (sessions.getSessionCache().exists(id)) {
                held++;
            }
        }
        System.out.printf("UpgradeFloodAbuseIT: %d anonymous upgrade requests to paths without a WebSocket route in %d ms: "
            + "%d sessions opened, %d still held afterwards, %d answers setting a cookie%n", REQUESTS, rest.millis,
            opened.size(), held, rest.cookies.get());
        assertThat(rest.notFound.get()).as("upgrades answered 404 with the API's error body").isEqualTo(REQUESTS);
        assertThat(rest.cookies.get()).as("answers setting a cookie").isZero();
        assertThat(held).as("sessions held after %d upgrades", REQUESTS).isZero();
        assertThat(probes.ok.get()).as("probe port upgrades answered as probes").isEqualTo(PROBE_REQUESTS);
        assertThat(probes.cookies.get()).as("probe answers setting a cookie").isZero();
        assertThat(app.get("/readyz").statusCode()).isEqualTo(200);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    /** What a flood's answers were. */
    private static final class Tally {
        final AtomicInteger notFound = new AtomicInteger();
        final AtomicInteger ok = new AtomicInteger();
        final AtomicInteger cookies = new AtomicInteger();
        long millis;
    }

    /**
     * Sends {@code n} anonymous upgrade requests for {@code target(i)} to {@code port} from {@link #CLIENTS} threads,
     * each over keep-alive connections as a browser's would be, and tallies the answers.
     */
    private static Tally flood(int port, int n, IntFunction<String> target) throws Exception {
        Tally tally = new Tally();
        AtomicInteger next = new AtomicInteger();
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                runs.add(pool.submit(() -> {
                    Socket s = null;
                    try {
                        for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                            if (s == null) {
                                s = new Socket("127.0.0.1", port);
                                s.setSoTimeout(30_000);
                            }
                            s.getOutputStream().write(upgrade(target.apply(i)).getBytes(StandardCharsets.US_ASCII));
                            Answer a = Answer.read(s.getInputStream());
                            if (a.status == 404 && a.body.contains("\"reason\":\"NotFound\"")) {
                                tally.notFound.incrementAndGet();
                            } else if (a.status == 200) {
                                tally.ok.incrementAndGet();
                            } else {
                                throw new AssertionError("upgrade of " + target.apply(i) + " answered:\n" + a.head + a.body);
                            }
                            if (a.head.toLowerCase(Locale.ROOT).contains("\r\nset-cookie:")) {
                                tally.cookies.incrementAndGet();
                            }
                            if (a.closes) {
                                s.close();
                                s = null;
                            }
                        }
                    } finally {
                        if (s != null) {
                            s.close();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdownNow();
        }
        tally.millis = (System.nanoTime() - t0) / 1_000_000;
        return tally;
    }

    private static String upgrade(String target) {
        byte[] key = new byte[16];
        ThreadLocalRandom.current().nextBytes(key);
        return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\n\r\n";
    }

    /** One answer on a kept-alive connection: its header block, its body (by Content-Length) and whether it ends the connection. */
    private record Answer(int status, String head, String body, boolean closes) {

        static Answer read(InputStream in) throws IOException {
            String h = RawWatches.readHead(in);
            if (!h.endsWith("\r\n\r\n")) {
                throw new IOException("connection closed after: " + h);
            }
            String lower = h.toLowerCase(Locale.ROOT);
            int at = lower.indexOf("\r\ncontent-length:");
            if (at < 0) {
                throw new IOException("no Content-Length in:\n" + h);
            }
            int length = Integer.parseInt(lower.substring(at + 17, lower.indexOf("\r\n", at + 2)).trim());
            byte[] body = in.readNBytes(length);
            return new Answer(Integer.parseInt(h.substring(9, 12)), h, new String(body, StandardCharsets.UTF_8),
                lower.contains("\r\nconnection: close"));
        }
    }
}
