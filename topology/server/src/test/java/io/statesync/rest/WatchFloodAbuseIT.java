package io.statesync.rest;

import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;


import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A flood of watches: more than the caps allow, and more than the server's request threads (Jetty's pool holds at most
 * 250), so that the instance only keeps answering if waiting watches hold no thread.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class WatchFloodAbuseIT {

    private static final int PER_TOKEN = 260;
    private static final int MAX_OPEN = 280;
    private static final long LIST_MAX_BYTES = 64 * 1024;

    private static RestTestApp app;
    private final List<Socket> watches = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> config = RestTestApp.config("watch-flood", RestTestApp.prefix("watch-flood"));
        config.put(ServerConfig.WATCH_MAX_OPEN, MAX_OPEN);
        config.put(ServerConfig.WATCH_MAX_OPEN_PER_TOKEN, PER_TOKEN);
        config.put(ServerConfig.LIST_MAX_BYTES, LIST_MAX_BYTES);
        app = RestTestApp.start(config);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @AfterEach
    void closeWatches() {
        for (Socket s : watches) {
            try {
                s.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
        watches.clear();
    }

    @Test
    void shouldRefuseWatchesPastTheCapsWithoutStarvingProbesOrWrites() throws Exception {
        assertThat(app.put("/api/v1/resources/Flood/default/a", Map.of("spec", Map.of("n", 1))).statusCode()).isBetween(200, 201);
        for (int i = 0; i < PER_TOKEN; i++) {
            assertThat(openWatch(RestTestApp.WRITER)).as("watch %d of the writer", i).startsWith("HTTP/1.1 200");
        }
        String perToken = openWatch(RestTestApp.WRITER);
        assertTooManyRequests(perToken, "watch.max.open.per.token");
        for (int i = PER_TOKEN; i < MAX_OPEN; i++) {
            assertThat(openWatch(RestTestApp.READER)).as("watch %d, of the reader", i).startsWith("HTTP/1.1 200");
        }
        assertTooManyRequests(openWatch(RestTestApp.READER), "watch.max.open=");

        assertAnswersWithin("/readyz", Duration.ofSeconds(1));
        assertAnswersWithin("/healthz", Duration.ofSeconds(1));
        HttpResponse<String> write = app.put("/api/v1/resources/Flood/default/a", Map.of("spec", Map.of("n", 2)));
        assertThat(write.statusCode()).as(write.body()).isEqualTo(200);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));

        closeWatches();
        // Each closed watch notices at its next bookmark (every 500 ms here) and gives its permit back.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            String again = openWatch(RestTestApp.WRITER);
            assertThat(again).startsWith("HTTP/1.1 200");
        });
    }

    @Test
    void shouldPageAListPastListMaxBytesAndStillListEveryObject() {
        String padding = "p".repeat(20_000);
        for (int i = 0; i < 12; i++) {
            HttpResponse<String> r = app.put("/api/v1/resources/Bulky/default/b" + i, Map.of("spec", Map.of("pad", padding)));
            assertThat(r.statusCode()).as(r.body()).isBetween(200, 201);
        }
        var first = json(app.get("/api/v1/resources?kind=Bulky"));
        assertThat(first.get("items").size()).as("a page of about 240 KB is cut at 64 KB").isBetween(1, 4);
        assertThat(first.get("metadata").get("continue").isNull()).isFalse();
        int listed = first.get("items").size();
        String next = first.get("metadata").get("continue").asText();
        while (next != null) {
            var page = json(app.get("/api/v1/resources?kind=Bulky&continue=" + next));
            assertThat(page.toString().length()).isLessThan(4 * (int) LIST_MAX_BYTES);
            listed += page.get("items").size();
            next = page.get("metadata").get("continue").isNull() ? null : page.get("metadata").get("continue").asText();
        }
        assertThat(listed).isEqualTo(12);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    private static void assertTooManyRequests(String answer, String naming) throws IOException {
        assertThat(answer).startsWith("HTTP/1.1 429").containsIgnoringCase("Retry-After: ");
        String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
        var error = RestTestApp.JSON.readTree(body.substring(body.indexOf('{')));
        assertThat(error.get("code").asInt()).isEqualTo(429);
        assertThat(error.get("reason").asText()).isEqualTo("TooManyRequests");
        assertThat(error.get("message").asText()).contains(naming);
    }

    private static void assertAnswersWithin(String path, Duration within) {
        long start = System.nanoTime();
        HttpResponse<String> r = app.send("GET", path, null, null);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        assertThat(json(r).toString()).isNotEmpty();
        assertThat(ms).as(path + " answered in %d ms with every watch open", ms).isLessThan(within.toMillis());
    }

    /**
     * Opens a watch on its own socket and returns what arrived of the answer: the head and, for a refusal, the body. The
     * socket stays open (and is closed after the test) when the watch was accepted.
     */
    private String openWatch(String token) throws IOException {
        Socket s = RawWatches.open(app.base, "/api/v1/watch?kind=Flood", token, 0);
        s.setSoTimeout(10_000);
        String head = RawWatches.readHead(s.getInputStream());
        if (head.startsWith("HTTP/1.1 200")) {
            watches.add(s);
            return head;
        }
        try (s) {
            return head + RawWatches.readRefusal(s.getInputStream());
        }
    }
}
