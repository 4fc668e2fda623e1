package io.statesync.rest;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import io.statesync.topology.StatesyncTopology;
import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of one application in this JVM. Reads of a key's reconcile state (its diff) go to the key's owner:
 * any instance answers any key, also across a rebalance, and from a standby when the owner cannot be reached.
 * Consistent point reads ({@code consistency=owner}) go nowhere: each instance's view catches up with the committed
 * end and answers.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestRoutingIT {

    private static final int KEYS = 30;
    private RestTestApp a;
    private RestTestApp b;

    @AfterEach
    void stop() {
        RestTestApp.closeAll(b, a);
    }

    @Test
    void shouldRouteEveryKeysDiffToItsOwnerIncludingAcrossARebalance() throws Exception {
        startPair("rest-routing", Map.of());
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
            assertThat(json(readEventually(a, k)).path("metadata").path("name").asText()).isEqualTo("routed-" + k);
        }
    }

    /**
     * Instance b's view fetches lazily (each fetch waits up to 1 s for 50 MB), so right after a write answered by a,
     * b's plain read shows the previous version; its consistent read must still show the write, by waiting for its
     * view to reach the committed end. Nothing is forwarded: the keys are a's, and b answers.
     */
    @Test
    void shouldShowAWriteAnsweredByOneInstanceToAConsistentReadOnAnotherWhoseViewLags() throws Exception {
        startPair("rest-consistent", Map.of(), Map.of("consumer.fetch.max.wait.ms", 1_000, "consumer.fetch.min.bytes", 50_000_000));
        b.awaitReady();
        String aHost = "127.0.0.1:" + a.app.httpPort();
        await().atMost(Duration.ofSeconds(60)).until(() -> IntStream.range(0, KEYS).anyMatch(k -> ownerOf(a, k).equals(aHost)));
        int key = IntStream.range(0, KEYS).filter(k -> ownerOf(a, k).equals(aHost)).findFirst().orElseThrow();
        String self = "127.0.0.1:" + b.app.httpPort();
        int staleReads = 0;
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> put = a.put(path(key), body(Map.of("i", i), Map.of()));
            assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
            HttpResponse<String> plain = b.get(path(key));
            staleReads += plain.statusCode() == 404 || json(plain).path("spec").path("i").asInt() != i ? 1 : 0;
            HttpResponse<String> read = b.get(path(key) + "?consistency=owner");
            assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
            assertThat(json(read).path("spec").path("i").asInt()).as("round %d", i).isEqualTo(i);
            assertThat(read.headers().firstValue("X-Statesync-Served-By")).hasValue(self);
            assertThat(read.headers().firstValue("X-Statesync-Source")).hasValue("view");
        }
        assertThat(staleReads).as("b's view lagged behind some writes, so the consistent reads had to wait").isPositive();
    }

    /**
     * Instance a advertises an address nobody listens on, so b cannot forward to it although a owns its partitions
     * and stays in the group: b must answer a's keys from its standby, marked stale, or 503 with Retry-After.
     */
    @Test
    void shouldServeAKeyFromAStandbyMarkedStaleWhenItsOwnerIsUnreachable() throws Exception {
        String unreachable = "127.0.0.1:" + unusedPort();
        startPair("rest-standby", Map.of(ServerConfig.APPLICATION_SERVER, unreachable));
        for (int k = 0; k < KEYS; k++) {
            assertThat(b.put(path(k), body(Map.of("k", k), Map.of())).statusCode()).isEqualTo(201);
        }
        int staleReads = 0;
        for (int k = 0; k < KEYS; k++) {
            HttpResponse<String> r = readEventually(b, k);
            assertThat(json(r).path("metadata").path("name").asText()).isEqualTo("routed-" + k);
            assertThat(r.headers().firstValue("X-Statesync-Served-By")).hasValue("127.0.0.1:" + b.app.httpPort());
            boolean ownedByA = ownerOf(b, k).equals(unreachable);
            assertThat(r.headers().firstValue("X-Statesync-Stale")).as("key " + k).isEqualTo(
                ownedByA ? Optional.of("true") : Optional.empty());
            staleReads += ownedByA ? 1 : 0;
        }
        assertThat(staleReads).as("a owns some partitions, so some reads came from b's standby").isPositive();
    }

    /**
     * Instance b starts after the resources exist: its view loads them (sorted once, at the end of its catch-up) and
     * then keeps up record by record. A paged list shows every key once, in key order, before and after a new write.
     */
    @Test
    void shouldListExistingResourcesInKeyOrderFromAViewLoadedAtStart() throws Exception {
        Map<String, Object> configA = RestTestApp.config("rest-view-load", RestTestApp.prefix("rest-view-load"));
        Map<String, Object> configB = RestTestApp.sameAppOwnState(configA);
        a = RestTestApp.start(configA);
        a.awaitReady();
        List<Integer> writeOrder = new ArrayList<>(IntStream.range(0, KEYS).boxed().toList());
        Collections.shuffle(writeOrder, new Random(3));
        for (int k : writeOrder) {
            assertThat(a.put(path(k), body(Map.of("k", k), Map.of())).statusCode()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> listNames(a).size() == KEYS);

        b = RestTestApp.start(configB);
        b.awaitReady();
        List<String> expected = new ArrayList<>(IntStream.range(0, KEYS).mapToObj(k -> "routed-" + k).sorted().toList());
        assertThat(listNames(b)).containsExactlyElementsOf(expected);

        assertThat(a.put(path(KEYS), body(Map.of("k", KEYS), Map.of())).statusCode()).isEqualTo(201);
        expected.add("routed-" + KEYS);
        Collections.sort(expected);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(listNames(b)).containsExactlyElementsOf(expected));
    }

    /** Every name of a list of WebApps, page by page (7 a page, so the continue token is used). */
    private static List<String> listNames(RestTestApp app) {
        List<String> names = new ArrayList<>();
        String next = null;
        do {
            HttpResponse<String> r = app.get("/api/v1/resources?kind=WebApp&limit=7" + (next == null ? "" : "&continue=" + next));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode page = json(r);
            page.path("items").forEach(item -> names.add(item.path("metadata").path("name").asText()));
            next = page.path("metadata").path("continue").isNull() ? null : page.path("metadata").path("continue").asText();
        } while (next != null);
        return names;
    }

    /** Two instances of one application with a standby of every task; {@code aOnly} is config for instance a only. */
    private void startPair(String name, Map<String, Object> aOnly) throws IOException {
        startPair(name, aOnly, Map.of());
    }

    private void startPair(String name, Map<String, Object> aOnly, Map<String, Object> bOnly) throws IOException {
        Map<String, Object> configA = RestTestApp.config(name, RestTestApp.prefix(name));
        configA.put(AppConfig.NUM_STANDBY_REPLICAS, 1);
        Map<String, Object> configB = RestTestApp.sameAppOwnState(configA);
        configA.putAll(aOnly);
        configB.putAll(bOnly);
        a = RestTestApp.start(configA);
        b = RestTestApp.start(configB);
        a.awaitReady();
    }

    private static String ownerOf(RestTestApp app, int k) {
        String key = "WebApp/default/routed-" + k;
        var md = app.app.streams().queryMetadataForKey(StatesyncTopology.STATE_STORE, key,
            Serdes.String().serializer());
        return md.activeHost().host() + ":" + md.activeHost().port();
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String path(int k) {
        return "/api/v1/resources/WebApp/default/routed-" + k;
    }

    /** A read of the key's reconcile state, which only its owner's store holds. */
    private static String ownerPath(int k) {
        return path(k) + "/diff";
    }

    /** A read that may meet 503 (with Retry-After) while partitions move, but must then succeed. */
    private static HttpResponse<String> readEventually(RestTestApp app, int k) throws InterruptedException {
        long deadline = System.currentTimeMillis() + Duration.ofSeconds(60).toMillis();
        HttpResponse<String> r = app.get(ownerPath(k));
        while (r.statusCode() == 503 && System.currentTimeMillis() < deadline) {
            assertThat(r.headers().firstValue("Retry-After")).isPresent();
            Thread.sleep(200);
            r = app.get(ownerPath(k));
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r;
    }
}
