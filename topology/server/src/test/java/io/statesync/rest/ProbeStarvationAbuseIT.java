package io.statesync.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client load must not starve the probes: with more open watches than the REST port has threads, the probe port
 * still answers /healthz, /livez and /readyz within a second.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class ProbeStarvationAbuseIT {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeStarvationAbuseIT.class);
    private static final int WATCHES = 400;

    private static RestTestApp app;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> config = RestTestApp.config("probe-starvation", RestTestApp.prefix("probe-starvation"));
        app = RestTestApp.start(config);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void shouldAnswerProbesOnTheProbePortWithinASecondWhileWatchesHoldEveryClientThread() throws Exception {
        int probePort = app.app.restServer().probePort();
        assertThat(probePort).isPositive();
        List<Socket> watches = openWatches(WATCHES);
        try {
            LOG.info("REST port /healthz with {} open watches: {}", WATCHES, timed(app.base + "/healthz"));
            for (String path : List.of("/healthz", "/livez", "/readyz")) {
                long start = System.nanoTime();
                HttpResponse<String> r = get("http://127.0.0.1:" + probePort + path);
                long ms = (System.nanoTime() - start) / 1_000_000;
                LOG.info("probe port {} with {} open watches: {} in {} ms", path, WATCHES, r.statusCode(), ms);
                assertThat(r.statusCode()).as("%s: %s", path, r.body()).isEqualTo(200);
                assertThat(ms).as("%s answers within a second", path).isLessThan(1_000);
            }
            assertThat(get("http://127.0.0.1:" + probePort + "/readyz").body()).contains("\"ready\":true", "statesync-resource-hub");
        } finally {
            for (Socket s : watches) {
                s.close();
            }
        }
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    @Test
    void shouldServeOnlyProbesOnTheProbePort() throws Exception {
        HttpResponse<String> r = get("http://127.0.0.1:" + app.app.restServer().probePort() + "/api/v1/resources");
        assertThat(r.statusCode()).isEqualTo(404);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    /** Watches opened on raw sockets whose answers are never read, each holding what the server gives a watch. */
    private static List<Socket> openWatches(int n) throws IOException, InterruptedException {
        List<Socket> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(RawWatches.open(app.base, "/api/v1/watch", RestTestApp.READER, 0));
        }
        // Give the server the time to hand each watch a thread.
        Thread.sleep(2_000);
        return out;
    }

    private String timed(String url) {
        long start = System.nanoTime();
        try {
            int status = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
            return status + " in " + (System.nanoTime() - start) / 1_000_000 + " ms";
        } catch (IOException e) {
            return "no answer in " + (System.nanoTime() - start) / 1_000_000 + " ms (" + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
