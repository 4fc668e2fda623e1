package io.statesync.rest;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import io.statesync.view.WatchPosition;
import io.statesync.view.internal.ViewSnapshot;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The REST view's snapshot across restarts, on the embedded broker: an instance that stopped cleanly starts from its
 * snapshot plus the topic's tail (also what other instances wrote meanwhile), and one whose snapshot is unusable reads
 * the topic from the beginning. Either way it must show exactly what a full read would.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestViewSnapshotIT {

    private static final int KEYS = 10;
    private RestTestApp a;
    private RestTestApp b;

    @AfterEach
    void stop() {
        RestTestApp.closeAll(b, a);
    }

    @Test
    void shouldStartFromItsSnapshotAndTheTailWrittenWhileItWasDown() throws Exception {
        Map<String, Object> configA = RestTestApp.config("rest-view-snapshot", RestTestApp.prefix("rest-view-snapshot"));
        Map<String, Object> configB = RestTestApp.sameAppOwnState(configA);
        a = RestTestApp.start(configA);
        b = RestTestApp.start(configB);
        for (int k = 0; k < KEYS; k++) {
            assertThat(a.put(path(k), body(Map.of("k", k), Map.of())).statusCode()).isEqualTo(201);
        }
        List<String> expected = new ArrayList<>(IntStream.range(0, KEYS).mapToObj(k -> "snap-" + k).toList());
        await().atMost(Duration.ofSeconds(60)).until(() -> listNames(a).equals(sorted(expected)));

        a.close();
        a = null;
        Path snapshot = snapshotFile(configA);
        assertThat(snapshot).isRegularFile();
        WatchPosition atStop = new WatchPosition(ViewSnapshot.readHeader(snapshot).positions());
        assertThat(b.put(path(KEYS), body(Map.of("k", KEYS), Map.of())).statusCode()).isEqualTo(201);
        assertThat(b.put(path(5), body(Map.of("k", 50), Map.of())).statusCode()).isEqualTo(200);
        assertThat(b.send("DELETE", path(3), null, null).statusCode()).isEqualTo(200);
        expected.remove("snap-3");
        expected.add("snap-" + KEYS);
        await().atMost(Duration.ofSeconds(60)).until(() -> listNames(b).equals(sorted(expected)));

        a = RestTestApp.start(configA);
        assertThat(metric(a, "statesync_rest_view_snapshot_resources")).isEqualTo(KEYS);
        assertThat(listNames(a)).containsExactlyElementsOf(sorted(expected));
        assertThat(json(a.get(path(5))).path("spec").path("k").asInt()).isEqualTo(50);
        assertTailReplayedFrom(atStop);
        try (SseClient w = SseClient.open(a.base, "/api/v1/watch?namespace=snap&resourceVersion="
            + new WatchPosition(new long[atStop.partitions()]).encode(), RestTestApp.READER)) {
            assertThat(w.status).as("a position older than the snapshot is not in the ring").isEqualTo(410);
        }
    }

    @Test
    void shouldReadTheTopicFromTheBeginningWhenItsSnapshotIsCutShort() throws Exception {
        Map<String, Object> config = RestTestApp.config("rest-view-cut", RestTestApp.prefix("rest-view-cut"));
        a = RestTestApp.start(config);
        // Out of key order, so that the read from the beginning has to sort them (LoadSorter).
        for (int k : new int[] {2, 0, 1}) {
            assertThat(a.put(path(k), body(Map.of("k", k), Map.of())).statusCode()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> listNames(a).size() == 3);
        a.close();
        a = null;
        Path snapshot = snapshotFile(config);
        byte[] whole = Files.readAllBytes(snapshot);
        Files.write(snapshot, java.util.Arrays.copyOf(whole, whole.length - 5));

        a = RestTestApp.start(config);

        assertThat(metric(a, "statesync_rest_view_snapshot_resources")).isZero();
        assertThat(listNames(a)).containsExactly("snap-0", "snap-1", "snap-2");
    }

    @Test
    void shouldMoveItsValuesToTheSnapshotFileWhileRunningAndStillServeEveryChange() throws Exception {
        Map<String, Object> config = RestTestApp.config("rest-view-spill", RestTestApp.prefix("rest-view-spill"));
        config.put(ServerConfig.VIEW_SPILL_BYTES, 1L);
        config.put(ServerConfig.VIEW_SPILL_INTERVAL_MS, 0L);
        a = RestTestApp.start(config);
        for (int k = 0; k < KEYS; k++) {
            assertThat(a.put(path(k), body(Map.of("k", k), Map.of())).statusCode()).isEqualTo(201);
        }
        List<String> all = sorted(IntStream.range(0, KEYS).mapToObj(k -> "snap-" + k).toList());
        // The spill waits for a quiet poll; on a loaded machine the pipeline's own status updates can hold it off a while.
        await().atMost(Duration.ofSeconds(150)).until(() -> listNames(a).equals(all) && metric(a, "statesync_rest_view_heap_bytes") == 0);
        assertThat(snapshotFile(config)).as("written while running, not only at a stop").isRegularFile();

        // A change after the write is held on the heap until the next one; reads show it either way.
        assertThat(a.put(path(2), body(Map.of("k", 20), Map.of())).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(150)).until(() -> json(a.get(path(2))).path("spec").path("k").asInt() == 20
            && metric(a, "statesync_rest_view_heap_bytes") == 0);
        assertThat(json(a.get(path(7))).path("spec").path("k").asInt()).isEqualTo(7);
        assertThat(listNames(a)).containsExactlyElementsOf(all);

        // The stop writes the view over the file its values are mapped from; the next start reads the same view.
        a.close();
        a = RestTestApp.start(config);
        assertThat(metric(a, "statesync_rest_view_snapshot_resources")).isEqualTo(KEYS);
        assertThat(listNames(a)).containsExactlyElementsOf(all);
        assertThat(json(a.get(path(2))).path("spec").path("k").asInt()).isEqualTo(20);
        assertThat(json(a.get(path(9))).path("spec").path("k").asInt()).isEqualTo(9);
    }

    /** A watch from the snapshot's position delivers what was written while the instance was down, last change per key. */
    private void assertTailReplayedFrom(WatchPosition atStop) throws Exception {
        Map<String, String> last = new HashMap<>();
        try (SseClient w = SseClient.open(a.base, "/api/v1/watch?namespace=snap&resourceVersion=" + atStop.encode(), RestTestApp.READER)) {
            assertThat(w.status).as(String.valueOf(w.errorBody)).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                SseClient.Event e;
                while ((e = w.next(Duration.ofMillis(200))) != null) {
                    JsonNode object = e.data().path("object");
                    if (!e.type().equals("BOOKMARK")) {
                        last.put(object.path("metadata").path("name").asText(), e.type() + " " + object.path("spec").path("k").asText());
                    }
                }
                assertThat(last).containsEntry("snap-" + KEYS, "ADDED " + KEYS).containsEntry("snap-5", "MODIFIED 50")
                    .containsKey("snap-3");
                assertThat(last.get("snap-3")).startsWith("DELETED");
            });
        }
        assertThat(last.keySet()).as("nothing from before the snapshot is replayed").containsOnly("snap-3", "snap-5", "snap-" + KEYS);
    }

    private static Path snapshotFile(Map<String, Object> config) {
        return Path.of((String) config.get(AppConfig.STATE_DIR), (String) config.get(AppConfig.APPLICATION_ID), "rest-view.snapshot");
    }

    private static double metric(RestTestApp app, String name) {
        String text = app.get("/metrics").body();
        return text.lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{")).mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
            .findFirst().orElseThrow(() -> new AssertionError(name + " not in /metrics"));
    }

    private static String path(int k) {
        return "/api/v1/resources/WebApp/snap/snap-" + k;
    }

    private static List<String> listNames(RestTestApp app) {
        HttpResponse<String> r = app.get("/api/v1/resources?namespace=snap");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        json(r).path("items").forEach(item -> names.add(item.path("metadata").path("name").asText()));
        return names;
    }

    /** The names a list returns: in key order. */
    private static List<String> sorted(List<String> names) {
        return names.stream().sorted().toList();
    }
}
