package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

/** Two instances of one application in this JVM: any instance answers any key, also across a rebalance. */
@ExtendWith(EmbeddedClusterExtension.class)
class RestRoutingIT {

    private static final int KEYS = 30;
    private RestTestApp a;
    private RestTestApp b;

    @AfterEach
    void stop() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    @Test
    void shouldReadEveryKeyFromEveryInstanceIncludingAcrossARebalance() throws Exception {
        Map<String, Object> configA = RestTestApp.config("rest-routing", RestTestApp.prefix("rest-routing"));
        configA.put(AppConfig.NUM_STANDBY_REPLICAS, 1);
        Map<String, Object> configB = new HashMap<>(configA);
        configB.put(AppConfig.STATE_DIR, RestTestApp.tempDir().toString());
        a = RestTestApp.start(configA);
        b = RestTestApp.start(configB);
        a.awaitReady();
        for (int k = 0; k < KEYS; k++) {
            assertThat(a.put(path(k), body(Map.of("k", k), Map.of())).statusCode()).isEqualTo(201);
        }
        Set<String> servers = new HashSet<>();
        for (int k = 0; k < KEYS; k++) {
            servers.add(readEventually(a, k).headers().firstValue("X-Statesync-Served-By").orElseThrow());
            servers.add(readEventually(b, k).headers().firstValue("X-Statesync-Served-By").orElseThrow());
        }
        assertThat(servers).as("both instances own some keys, so reads were forwarded").hasSize(2);

        b.close();
        b = null;
        for (int k = 0; k < KEYS; k++) {
            assertThat(json(readEventually(a, k)).path("spec").path("k").asInt()).isEqualTo(k);
        }
    }

    private static String path(int k) {
        return "/api/v1/resources/WebApp/default/routed-" + k;
    }

    /** A read that may meet 503 (with Retry-After) while partitions move, but must then succeed. */
    private static HttpResponse<String> readEventually(RestTestApp app, int k) throws InterruptedException {
        long deadline = System.currentTimeMillis() + Duration.ofSeconds(60).toMillis();
        HttpResponse<String> r = app.get(path(k));
        while (r.statusCode() == 503 && System.currentTimeMillis() < deadline) {
            assertThat(r.headers().firstValue("Retry-After")).isPresent();
            Thread.sleep(200);
            r = app.get(path(k));
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r;
    }
}
