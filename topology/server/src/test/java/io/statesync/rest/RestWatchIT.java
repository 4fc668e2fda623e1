package io.statesync.rest;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.UUID;

import io.statesync.avro.Resource;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.rest.internal.WatchHandler;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicNames;
import io.statesync.view.WatchPosition;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Watch resume, 410 Gone, bookmarks, and the compare-and-swap race, over real HTTP on the embedded broker. */
@ExtendWith(EmbeddedClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RestWatchIT {

    /**
     * CAS race rounds: two writers race on the same expected version in each. The rounds run on
     * {@link #CAS_KEYS} keys at once, so that they share the pipeline's commits and the test stays short.
     */
    private static final int CAS_ROUNDS = 500;
    private static final int CAS_KEYS = 5;
    private static final int KEYS = 50;
    private static final int UPDATES_PER_KEY = 20;
    private static final long SEND_TIMEOUT_MS = 2_000;
    /** Enough 32 KB objects to overflow the server's socket send buffer (at most 4 MB here) and Jetty's buffer. */
    private static final int SLOW_WATCH_OBJECTS = 250;

    private static RestTestApp app;
    private static Map<String, Object> config;

    @BeforeAll
    static void start() throws Exception {
        config = RestTestApp.config("rest-watch", RestTestApp.prefix("rest-watch"));
        config.put(ServerConfig.WATCH_SEND_TIMEOUT_MS, SEND_TIMEOUT_MS);
        app = RestTestApp.start(config);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    @Order(1)
    void shouldLetExactlyOneOfTwoConcurrentWritersWinEveryCasRound() throws Exception {
        ExecutorService racers = Executors.newFixedThreadPool(CAS_KEYS);
        ExecutorService writers = Executors.newFixedThreadPool(2 * CAS_KEYS);
        try {
            List<Future<Integer>> keys = new ArrayList<>();
            for (int k = 0; k < CAS_KEYS; k++) {
                String path = "/api/v1/resources/Counter/default/race-" + k;
                keys.add(racers.submit(() -> raceRounds(path, CAS_ROUNDS / CAS_KEYS, writers)));
            }
            int rounds = 0;
            for (Future<Integer> f : keys) {
                rounds += f.get();
            }
            assertThat(rounds).isEqualTo(CAS_ROUNDS);
        } finally {
            racers.shutdownNow();
            writers.shutdownNow();
        }
    }

    /** Rounds of two writers sending the same expected version to {@code path}; returns the rounds won by exactly one. */
    private static int raceRounds(String path, int rounds, ExecutorService writers) throws Exception {
        String version = json(app.put(path, body(Map.of("round", -1), Map.of()))).path("metadata").path("resourceVersion").asText();
        int won = 0;
        for (int round = 0; round < rounds; round++) {
            List<Future<java.net.http.HttpResponse<String>>> writes = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                Map<String, Object> b = Map.of("metadata", Map.of("resourceVersion", version), "spec", Map.of("round", round, "writer", w));
                writes.add(writers.submit(() -> app.put(path, b)));
            }
            int a = writes.get(0).get().statusCode();
            int b = writes.get(1).get().statusCode();
            assertThat(List.of(a, b)).as(path + " round " + round).containsExactlyInAnyOrder(200, 409);
            int winner = a == 200 ? 0 : 1;
            String conflictVersion = json(writes.get(1 - winner).get()).path("resourceVersion").asText();
            assertThat(conflictVersion).as("the loser learns a newer version than it expected").isNotEmpty().isNotEqualTo(version);
            version = json(writes.get(winner).get()).path("metadata").path("resourceVersion").asText();
            won++;
        }
        assertThat(json(app.get(path)).path("metadata").path("generation").asLong()).isEqualTo(rounds + 1);
        return won;
    }

    @Test
    @Order(2)
    void shouldResumeFromAListPositionWithoutGapOrDuplicateAfterAThousandChanges() throws Exception {
        String ns = "w-" + UUID.randomUUID().toString().substring(0, 6);
        // No timer-driven status churn during the test, so the topic holds exactly what the writes caused.
        assertThat(app.put("/api/v1/kinds/Watched", Map.of("correctionDeadlineMs", 600_000, "resyncPeriodMs", 600_000,
            "stalenessBoundMs", 600_000)).statusCode()).isEqualTo(200);
        for (int k = 0; k < KEYS / 2; k++) {
            app.put("/api/v1/resources/Watched/" + ns + "/k" + k, body(Map.of("n", -1), Map.of()));
        }
        String position = json(app.get("/api/v1/resources?namespace=" + ns)).path("metadata").path("resourceVersion").asText();
        writeChanges(ns);
        List<ConsumerRecord<String, Resource>> truth = ResourceRecords.after(new AppConfig(config), WatchPosition.decode(position).offsets(), ns);
        assertThat(truth.size()).isGreaterThanOrEqualTo(KEYS * UPDATES_PER_KEY);

        List<SseClient.Event> seen = new ArrayList<>();
        String resumeFrom = position;
        int firstLeg = truth.size() / 3;
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?namespace=" + ns + "&resourceVersion=" + resumeFrom, RestTestApp.WRITER)) {
            assertThat(w.status).as(String.valueOf(w.errorBody)).isEqualTo(200);
            resumeFrom = collect(w, seen, firstLeg);
        }
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?namespace=" + ns + "&resourceVersion=" + resumeFrom, RestTestApp.WRITER)) {
            collect(w, seen, truth.size());
        }
        assertSameChanges(seen, truth);
    }

    private static void writeChanges(String ns) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                String path = "/api/v1/resources/Watched/" + ns + "/k" + k;
                all.add(pool.submit(() -> {
                    for (int n = 0; n < UPDATES_PER_KEY; n++) {
                        assertThat(app.put(path, body(Map.of("n", n), Map.of())).statusCode()).isIn(200, 201);
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Reads change events (skipping bookmarks) until {@code total} are in {@code seen}; returns the last event id. */
    private static String collect(SseClient w, List<SseClient.Event> seen, int total) throws InterruptedException {
        String last = null;
        long deadline = System.currentTimeMillis() + 60_000;
        while (seen.size() < total && System.currentTimeMillis() < deadline) {
            SseClient.Event e = w.next(Duration.ofSeconds(1));
            if (e == null || e.type().equals("BOOKMARK")) {
                continue;
            }
            seen.add(e);
            last = e.id();
        }
        return last;
    }

    /** Per key, the watch must deliver exactly the topic's records after the position, in order. */
    private static void assertSameChanges(List<SseClient.Event> seen, List<ConsumerRecord<String, Resource>> truth) {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        for (ConsumerRecord<String, Resource> r : truth) {
            expected.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value() == null ? "DELETED" : r.value().getMetadata().getResourceVersion());
        }
        Map<String, List<String>> actual = new LinkedHashMap<>();
        Set<String> unique = new HashSet<>();
        for (SseClient.Event e : seen) {
            var m = e.data().path("object").path("metadata");
            String key = e.data().path("object").path("kind").asText() + "/" + m.path("namespace").asText() + "/" + m.path("name").asText();
            String v = e.type().equals("DELETED") ? "DELETED" : m.path("resourceVersion").asText();
            actual.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
            assertThat(unique.add(key + "@" + v + "@" + e.id())).as("duplicate event " + key + " " + v).isTrue();
        }
        assertThat(seen).hasSize(truth.size());
        assertThat(actual).isEqualTo(expected);
        Map<String, String> firstType = new HashMap<>();
        seen.forEach(e -> firstType.putIfAbsent(e.data().path("object").path("metadata").path("name").asText(), e.type()));
        assertThat(firstType.get("k" + (KEYS - 1))).as("a key created after the position starts with ADDED").isEqualTo("ADDED");
        assertThat(firstType.get("k0")).as("a key listed at the position starts with MODIFIED").isEqualTo("MODIFIED");
    }

    @Test
    @Order(3)
    void shouldSendBookmarksToAnIdleWatch() throws Exception {
        String position = json(app.get("/api/v1/resources?namespace=idle")).path("metadata").path("resourceVersion").asText();
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?namespace=idle&resourceVersion=" + position, RestTestApp.READER)) {
            SseClient.Event e = w.next(Duration.ofSeconds(5));
            assertThat(e).isNotNull();
            assertThat(e.type()).isEqualTo("BOOKMARK");
            assertThat(WatchPosition.decode(e.data().path("object").path("metadata").path("resourceVersion").asText()).partitions())
                .isEqualTo(3);
        }
    }

    @Test
    @Order(4)
    void shouldStartWithTheCurrentObjectsWhenNoPositionIsGiven() throws Exception {
        String ns = "snap-" + UUID.randomUUID().toString().substring(0, 6);
        app.put("/api/v1/resources/WebApp/" + ns + "/one", body(Map.of("a", 1), Map.of()));
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?namespace=" + ns, RestTestApp.READER)) {
            SseClient.Event e = w.next(Duration.ofSeconds(5));
            assertThat(e.type()).isEqualTo("ADDED");
            assertThat(e.data().path("object").path("metadata").path("name").asText()).isEqualTo("one");
            app.put("/api/v1/resources/WebApp/" + ns + "/one", body(Map.of("a", 2), Map.of()));
            SseClient.Event next;
            do {
                next = w.next(Duration.ofSeconds(5));
            } while (next != null && next.type().equals("BOOKMARK"));
            assertThat(next).isNotNull();
            assertThat(next.type()).isEqualTo("MODIFIED");
        }
    }

    @Test
    @Order(5)
    void shouldAnswer410ForAPositionThatIsNotAToken() throws Exception {
        for (String bad : List.of("garbage", "eyJ2IjoyfQ", "eyJ2IjoxLCJvIjpbLTFdfQ")) {
            try (SseClient w = SseClient.open(app.base, "/api/v1/watch?resourceVersion=" + bad, RestTestApp.READER)) {
                assertThat(w.status).as(bad).isEqualTo(410);
                assertThat(RestTestApp.JSON.readTree(w.errorBody).path("reason").asText()).isEqualTo("Gone");
            }
        }
    }

    @Test
    @Order(7)
    void shouldSendDeletedWhenAnObjectStopsMatchingTheSelectorAndAddedWhenItMatchesAgain() throws Exception {
        String ns = "sel-" + UUID.randomUUID().toString().substring(0, 6);
        String path = "/api/v1/resources/Watched/" + ns + "/one";
        assertThat(app.put("/api/v1/kinds/Watched", Map.of("correctionDeadlineMs", 600_000, "resyncPeriodMs", 600_000,
            "stalenessBoundMs", 600_000)).statusCode()).isEqualTo(200);
        String position = json(app.get("/api/v1/resources?namespace=" + ns)).path("metadata").path("resourceVersion").asText();
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?namespace=" + ns + "&labelSelector=tier%3Dweb&resourceVersion="
            + position, RestTestApp.READER)) {
            app.put("/api/v1/resources/Watched/" + ns + "/never", body(Map.of("a", 0), Map.of("tier", "db")));
            app.put(path, body(Map.of("a", 1), Map.of("tier", "web")));
            assertNextChange(w, "ADDED", "web", 1);
            app.put(path, body(Map.of("a", 2), Map.of("tier", "db")));
            assertNextChange(w, "DELETED", "web", 1);
            app.put(path, body(Map.of("a", 3), Map.of("tier", "db")));
            app.put(path, body(Map.of("a", 4), Map.of("tier", "web")));
            assertNextChange(w, "ADDED", "web", 4);
            app.put(path, body(Map.of("a", 5), Map.of("tier", "web")));
            assertNextChange(w, "MODIFIED", "web", 5);
            assertThat(app.send("DELETE", path, null, null).statusCode()).isEqualTo(200);
            assertNextChange(w, "DELETED", "web", 5);
        }
    }

    /**
     * The next change event must be {@code type} of "one" with the given label and spec. Bookmarks are skipped, and so
     * are status-only MODIFIED events of the previous state (the reconciler updates status after each write).
     */
    private static void assertNextChange(SseClient w, String type, String tier, int a) throws InterruptedException {
        SseClient.Event e;
        do {
            e = w.next(Duration.ofSeconds(10));
        } while (e != null && (e.type().equals("BOOKMARK") || e.type().equals("MODIFIED")
            && !(type.equals("MODIFIED") && e.data().path("object").path("spec").path("a").asInt() == a)));
        assertThat(e).as("a " + type + " event").isNotNull();
        var object = e.data().path("object");
        assertThat(e.type() + " " + object.path("metadata").path("name").asText() + " " + object.path("metadata")
            .path("labels").path("tier").asText() + " " + object.path("spec").path("a").asInt())
            .isEqualTo(type + " one " + tier + " " + a);
    }

    @Test
    @Order(6)
    void shouldAnswer410ForAPositionOfAnotherPartitionCount() throws Exception {
        String token = new WatchPosition(new long[] {0, 0}).encode();
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?resourceVersion=" + token, RestTestApp.READER)) {
            assertThat(w.status).isEqualTo(410);
        }
    }

    @Test
    @Order(8)
    void shouldCutOffAWatchClientThatStopsReadingWhileOthersGetEveryChange() throws Exception {
        String ns = "slow-" + UUID.randomUUID().toString().substring(0, 6);
        String watch = "/api/v1/watch?namespace=" + ns + "&resourceVersion="
            + json(app.get("/api/v1/resources?namespace=" + ns)).path("metadata").path("resourceVersion").asText();
        double cutoffsBefore = cutoffs();
        try (Socket stalled = openWithoutReading(watch); SseClient reader = SseClient.open(app.base, watch, RestTestApp.READER)) {
            String big = "x".repeat(32 * 1024);
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<Integer>> writes = new ArrayList<>();
            for (int k = 0; k < SLOW_WATCH_OBJECTS; k++) {
                String path = "/api/v1/resources/WebApp/" + ns + "/o" + k;
                writes.add(pool.submit(() -> app.put(path, body(Map.of("blob", big), Map.of())).statusCode()));
            }
            for (Future<Integer> f : writes) {
                assertThat(f.get()).as("writes keep being answered while a watcher is stalled").isEqualTo(201);
            }
            pool.shutdown();
            long writesDone = System.nanoTime();
            await().atMost(Duration.ofMillis(SEND_TIMEOUT_MS + 10_000)).pollInterval(Duration.ofMillis(100))
                .until(() -> cutoffs() > cutoffsBefore);
            System.out.printf("stalled watch cut off %d ms after the last write (send timeout %d ms)%n",
                Duration.ofNanos(System.nanoTime() - writesDone).toMillis(), SEND_TIMEOUT_MS);
            assertThat(app.get("/healthz").statusCode()).isEqualTo(200);
            assertConnectionEnds(stalled);
            Set<String> added = new HashSet<>();
            long deadline = System.currentTimeMillis() + 30_000;
            while (added.size() < SLOW_WATCH_OBJECTS && System.currentTimeMillis() < deadline) {
                SseClient.Event e = reader.next(Duration.ofSeconds(1));
                if (e != null && e.type().equals("ADDED")) {
                    added.add(e.data().path("object").path("metadata").path("name").asText());
                }
            }
            assertThat(added).as("the reading watcher got every object").hasSize(SLOW_WATCH_OBJECTS);
        }
    }

    /** A raw HTTP watch request on a socket with a tiny receive buffer, whose answer is never read. */
    private static Socket openWithoutReading(String pathAndQuery) throws IOException {
        return RawWatches.open(app.base, pathAndQuery, RestTestApp.READER, 4096);
    }

    /** Draining a cut-off connection reaches its end quickly; a live one would keep delivering bookmarks. */
    private static void assertConnectionEnds(Socket s) throws IOException {
        s.setSoTimeout(5_000);
        byte[] buf = new byte[65_536];
        long deadline = System.currentTimeMillis() + 10_000;
        try {
            while (s.getInputStream().read(buf) >= 0) {
                assertThat(System.currentTimeMillis()).as("the stalled connection was closed").isLessThan(deadline);
            }
        } catch (SocketException reset) {
            // A reset is as good as an end: the server closed the connection with unread data.
        }
    }

    private static double cutoffs() {
        return app.app.registry().find(WatchHandler.CUTOFFS).tag("reason", "send-timeout").counters().stream()
            .mapToDouble(c -> c.count()).sum();
    }

    /** Last: it deletes history of this class's resources topic. */
    @Test
    @Order(100)
    void shouldAnswer410ForAPositionFromBeforeTheLogStart() throws Exception {
        String ns = "gone-" + UUID.randomUUID().toString().substring(0, 6);
        String old = json(app.get("/api/v1/resources?namespace=" + ns)).path("metadata").path("resourceVersion").asText();
        for (int k = 0; k < 6; k++) {
            app.put("/api/v1/resources/WebApp/" + ns + "/k" + k, body(Map.of("k", k), Map.of()));
        }
        String resources = new TopicNames(app.prefix).resources();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers()))) {
            Map<TopicPartition, OffsetSpec> q = new HashMap<>();
            for (int p = 0; p < 3; p++) {
                q.put(new TopicPartition(resources, p), OffsetSpec.latest());
            }
            // The broker refuses DeleteRecords on a compact-only topic; retention would advance the log start the same way.
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, resources);
            admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                new ConfigEntry(TopicConfig.CLEANUP_POLICY_CONFIG, "compact,delete"), AlterConfigOp.OpType.SET)))).all().get();
            Map<TopicPartition, RecordsToDelete> del = new HashMap<>();
            admin.listOffsets(q).all().get().forEach((tp, info) -> del.put(tp, RecordsToDelete.beforeOffset(info.offset())));
            // The policy change reaches the broker's topic config asynchronously; until it has, DeleteRecords is refused.
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> {
                    admin.deleteRecords(del).all().get();
                    return true;
                });
        }
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?resourceVersion=" + old, RestTestApp.READER)) {
            assertThat(w.status).as(String.valueOf(w.errorBody)).isEqualTo(410);
            assertThat(RestTestApp.JSON.readTree(w.errorBody).path("reason").asText()).isEqualTo("Gone");
        }
    }
}
