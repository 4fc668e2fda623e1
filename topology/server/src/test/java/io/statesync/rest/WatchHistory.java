package io.statesync.rest;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a watch client holds after the events it received, folded into key to resourceVersion, checked event by event
 * as a strict client would: no event twice, ADDED only for a key it does not hold, MODIFIED and DELETED only for one
 * it does.
 */
final class WatchHistory {

    private final Map<String, String> held = new TreeMap<>();
    private final Set<String> delivered = new HashSet<>();

    WatchHistory addAll(List<SseClient.Event> events) {
        events.forEach(this::add);
        return this;
    }

    WatchHistory add(SseClient.Event e) {
        if (e.type().equals("BOOKMARK")) {
            return this;
        }
        JsonNode object = e.data().path("object");
        String key = key(object);
        String version = object.path("metadata").path("resourceVersion").asText();
        // A DELETED carries the last object the client saw, so it shares that object's version.
        String tag = e.type().equals("DELETED") ? "DELETED " + key + "@" + version : key + "@" + version;
        assertThat(delivered.add(tag)).as("delivered twice: " + e.type() + " " + tag).isTrue();
        switch (e.type()) {
            case "ADDED" -> assertThat(held.put(key, version)).as("ADDED for a key already held: " + key).isNull();
            case "MODIFIED" -> assertThat(held.put(key, version)).as("MODIFIED of a key not held: " + key).isNotNull();
            case "DELETED" -> assertThat(held.remove(key)).as("DELETED of a key not held: " + key).isNotNull();
            default -> throw new AssertionError("unexpected event " + e.type() + ": " + e.data());
        }
        return this;
    }

    /** The list's items must be exactly what the events left the client holding. */
    void assertHolds(JsonNode list, String as) {
        Map<String, String> expected = new TreeMap<>();
        for (JsonNode item : list.path("items")) {
            expected.put(key(item), item.path("metadata").path("resourceVersion").asText());
        }
        assertThat(held).as(as).isEqualTo(expected);
    }

    static String key(JsonNode object) {
        JsonNode m = object.path("metadata");
        return object.path("kind").asText() + "/" + m.path("namespace").asText() + "/" + m.path("name").asText();
    }
}
