package io.statesync.rest;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.rest.internal.WatchHandler;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Resuming a watch from any event id, during the initial events and after them, with writes between the
 * connections: what the client received before the id plus what it receives after resuming must be exactly the
 * current list, with no event twice. Over real HTTP on the embedded broker.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestWatchResumeIT {

    private static final int OBJECTS = 50;
    private static final String KIND = "Resumed";
    private static final Duration EVENT_WAIT = Duration.ofSeconds(15);

    /** How a resuming client passes the id back. */
    enum ResumeBy { RESOURCE_VERSION, LAST_EVENT_ID }

    private static RestTestApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RestTestApp.start(RestTestApp.config("rest-resume", RestTestApp.prefix("rest-resume")));
        // No timer-driven status changes: the topic holds exactly what the writes caused.
        assertThat(app.put("/api/v1/kinds/" + KIND, Map.of("correctionDeadlineMs", 600_000, "resyncPeriodMs", 600_000,
            "stalenessBoundMs", 600_000)).statusCode()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @ParameterizedTest
    @EnumSource(ResumeBy.class)
    void shouldResumeAfterEveryInitialEvent(ResumeBy by) throws Exception {
        String query = "namespace=" + createObjects();
        List<SseClient.Event> initial = initialEvents(query, null, by);
        assertThat(initial).hasSize(OBJECTS + 1);
        assertThat(initial.stream().map(SseClient.Event::id).distinct()).as("every initial event has its own id").hasSize(OBJECTS + 1);
        JsonNode list = settledList(query);
        for (int i = 0; i < initial.size(); i++) {
            WatchHistory client = new WatchHistory().addAll(initial.subList(0, i + 1));
            client.addAll(initialEvents(query, initial.get(i).id(), by));
            client.assertHolds(list, "resumed after initial event " + i);
        }
    }

    static Stream<Arguments> resumes() {
        return Stream.of(Arguments.of(ResumeBy.RESOURCE_VERSION, null), Arguments.of(ResumeBy.LAST_EVENT_ID, null),
            Arguments.of(ResumeBy.RESOURCE_VERSION, "tier=web"));
    }

    /**
     * Cuts the first connection after several of its initial events, writes around the cut (updates, deletes, new keys
     * and label flips before, at and after the cursor's key), resumes, and checks; then does the same from an event
     * of the resumed stream and from a live event after its initial events.
     */
    @ParameterizedTest
    @MethodSource("resumes")
    void shouldResumeFromIdsTakenBeforeAndAfterLiveChanges(ResumeBy by, String selector) throws Exception {
        String ns = createObjects();
        String query = "namespace=" + ns + (selector == null ? "" : "&labelSelector=" + URLEncoder.encode(selector, StandardCharsets.UTF_8));
        List<SseClient.Event> initial = initialEvents(query, null, by);
        for (int cut : new int[] {0, initial.size() / 3, initial.size() - 2, initial.size() - 1}) {
            List<SseClient.Event> before = new ArrayList<>(initial.subList(0, cut + 1));
            writeAround(ns, before.get(cut));
            List<SseClient.Event> resumed = initialEvents(query, before.get(cut).id(), by);
            new WatchHistory().addAll(before).addAll(resumed).assertHolds(settledList(query), "resumed after initial event " + cut);

            before.addAll(resumed.subList(0, resumed.size() / 2 + 1));
            SseClient.Event middle = before.get(before.size() - 1);
            writeAround(ns, middle);
            List<SseClient.Event> again = initialEvents(query, middle.id(), by);
            new WatchHistory().addAll(before).addAll(again).assertHolds(settledList(query),
                "resumed after " + middle.type() + " " + middle.id() + " of a resumed stream");
        }
        assertResumesAfterALiveEvent(ns, query, initial, by);
    }

    /** Follows a watch past its initial events, takes one live change, and resumes after it once more was written. */
    private static void assertResumesAfterALiveEvent(String ns, String query, List<SseClient.Event> history, ResumeBy by)
        throws Exception {
        WatchHistory client = new WatchHistory().addAll(history);
        String last = history.get(history.size() - 1).id();
        SseClient.Event live;
        try (SseClient w = open(query, last, by)) {
            client.addAll(untilInitialEnd(w));
            String name = firstName(settledList(query));
            put(ns, name, Map.of("live", 1), "web");
            live = nextChange(w);
            assertThat(live).as("a live event").isNotNull();
        }
        client.add(live);
        writeAround(ns, live);
        client.addAll(initialEvents(query, live.id(), by));
        client.assertHolds(settledList(query), "resumed after a live event");
    }

    @Test
    void shouldRejectResourceVersionAndLastEventIdThatDisagree() throws Exception {
        String query = "namespace=disagree-" + UUID.randomUUID().toString().substring(0, 6);
        String position = settledList(query).path("metadata").path("resourceVersion").asText();
        String other = new WatchCursor(WatchPosition.decode(position), KIND + "/x/y").encode();
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?" + query + "&resourceVersion=" + position,
            RestTestApp.READER, "Last-Event-ID", other)) {
            assertThat(w.status).as(String.valueOf(w.errorBody)).isEqualTo(400);
        }
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?" + query + "&resourceVersion=" + position,
            RestTestApp.READER, "Last-Event-ID", position)) {
            assertThat(w.status).as(String.valueOf(w.errorBody)).isEqualTo(200);
        }
        try (SseClient w = SseClient.open(app.base, "/api/v1/watch?" + query, RestTestApp.READER, "Last-Event-ID", "garbage")) {
            assertThat(w.status).isEqualTo(410);
        }
    }

    /** A new namespace with {@link #OBJECTS} objects, o005 to o495 so that new names fit between them, half tier=web. */
    private static String createObjects() throws Exception {
        String ns = "r-" + UUID.randomUUID().toString().substring(0, 6);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> writes = new ArrayList<>();
            for (int i = 0; i < OBJECTS; i++) {
                String name = String.format("o%03d", i * 10 + 5);
                String tier = i % 2 == 0 ? "web" : "db";
                writes.add(pool.submit(() -> put(ns, name, Map.of("n", 0), tier)));
            }
            for (Future<Integer> f : writes) {
                assertThat(f.get()).isEqualTo(201);
            }
        } finally {
            pool.shutdownNow();
        }
        return ns;
    }

    /**
     * Writes around the key of {@code event} (the middle key when it names none): updates and label flips of the keys
     * just before and after it and of the key itself, deletes of the first and the last key, a new key just before it
     * and one just after it.
     */
    private static void writeAround(String ns, SseClient.Event event) {
        List<JsonNode> items = new ArrayList<>();
        settledList("namespace=" + ns).path("items").forEach(items::add);
        String cursor = event.type().equals("BOOKMARK") ? items.get(items.size() / 2).path("metadata").path("name").asText()
            : event.data().path("object").path("metadata").path("name").asText();
        String round = UUID.randomUUID().toString().substring(0, 4);
        List<JsonNode> flip = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            int order = items.get(i).path("metadata").path("name").asText().compareTo(cursor);
            boolean nextToCursor = order == 0 || order < 0 && (i + 1 == items.size() || nameOf(items.get(i + 1)).compareTo(cursor) >= 0)
                || order > 0 && (i == 0 || nameOf(items.get(i - 1)).compareTo(cursor) <= 0);
            if (nextToCursor) {
                flip.add(items.get(i));
            }
        }
        for (JsonNode item : flip) {
            String tier = item.path("metadata").path("labels").path("tier").asText();
            assertThat(put(ns, nameOf(item), Map.of("round", round), tier.equals("web") ? "db" : "web")).isEqualTo(200);
        }
        for (JsonNode gone : new HashSet<>(List.of(items.get(0), items.get(items.size() - 1)))) {
            assertThat(app.send("DELETE", "/api/v1/resources/" + KIND + "/" + ns + "/" + nameOf(gone), null, null).statusCode())
                .isEqualTo(200);
        }
        // A name just below the cursor's ("o124-x" sorts between "o115" and "o125"), and one just above it.
        String below = cursor.substring(0, 3) + (char) (cursor.charAt(3) - 1) + "-" + round;
        assertThat(put(ns, below, Map.of("round", round), "web")).isEqualTo(201);
        assertThat(put(ns, cursor + "-" + round, Map.of("round", round), "web")).isEqualTo(201);
    }

    private static String nameOf(JsonNode item) {
        return item.path("metadata").path("name").asText();
    }

    private static String firstName(JsonNode list) {
        return nameOf(list.path("items").get(0));
    }

    private static int put(String ns, String name, Map<String, Object> spec, String tier) {
        return app.put("/api/v1/resources/" + KIND + "/" + ns + "/" + name, body(spec, Map.of("tier", tier))).statusCode();
    }

    /** A watch's events up to and including the BOOKMARK that ends its initial events. */
    private static List<SseClient.Event> initialEvents(String query, String from, ResumeBy by) throws Exception {
        try (SseClient w = open(query, from, by)) {
            return untilInitialEnd(w);
        }
    }

    private static SseClient open(String query, String from, ResumeBy by) throws Exception {
        SseClient w = from == null ? SseClient.open(app.base, "/api/v1/watch?" + query, RestTestApp.READER)
            : by == ResumeBy.RESOURCE_VERSION
            ? SseClient.open(app.base, "/api/v1/watch?" + query + "&resourceVersion=" + from, RestTestApp.READER)
            : SseClient.open(app.base, "/api/v1/watch?" + query, RestTestApp.READER, "Last-Event-ID", from);
        assertThat(w.status).as(String.valueOf(w.errorBody)).isEqualTo(200);
        return w;
    }

    private static List<SseClient.Event> untilInitialEnd(SseClient w) throws InterruptedException {
        List<SseClient.Event> events = new ArrayList<>();
        while (true) {
            SseClient.Event e = w.next(EVENT_WAIT);
            assertThat(e).as("the initial events end with a BOOKMARK; got " + events.size() + " events").isNotNull();
            events.add(e);
            if (e.type().equals("BOOKMARK")) {
                JsonNode annotations = e.data().path("object").path("metadata").path("annotations");
                assertThat(annotations.path(WatchHandler.INITIAL_EVENTS_END).asText()).as("the first BOOKMARK ends the initial events")
                    .isEqualTo("true");
                return events;
            }
        }
    }

    private static SseClient.Event nextChange(SseClient w) throws InterruptedException {
        SseClient.Event e;
        do {
            e = w.next(EVENT_WAIT);
        } while (e != null && e.type().equals("BOOKMARK"));
        return e;
    }

    /**
     * The list once the pipeline has stopped changing the topic: the same position twice in a row. Comparing a
     * watch with a list is exact only when nothing was written between them.
     */
    private static JsonNode settledList(String query) {
        JsonNode list = json(app.get("/api/v1/resources?limit=5000&" + query));
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            sleep(300);
            JsonNode again = json(app.get("/api/v1/resources?limit=5000&" + query));
            if (again.path("metadata").path("resourceVersion").equals(list.path("metadata").path("resourceVersion"))) {
                return again;
            }
            list = again;
        }
        throw new AssertionError("the resources topic kept changing for 30 s");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
