package io.statesync.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.Resource;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import static org.assertj.core.api.Assertions.assertThat;

/** The events {@code statesync watch -o json} printed, one JSON object a line, per key. */
final class WatchOutput {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Per key, each printed event's resourceVersion in order, "DELETED" for a delete. */
    private final Map<String, List<String>> printed = new LinkedHashMap<>();

    WatchOutput(String out) throws Exception {
        for (String line : out.lines().filter(l -> !l.isBlank()).toList()) {
            JsonNode event = JSON.readTree(line);
            JsonNode o = event.path("object");
            JsonNode m = o.path("metadata");
            String key = o.path("kind").asText() + "/" + m.path("namespace").asText() + "/" + m.path("name").asText();
            String type = event.path("type").asText();
            printed.computeIfAbsent(key, k -> new ArrayList<>()).add(type.equals("DELETED") ? "DELETED" : m.path("resourceVersion").asText());
        }
    }

    /** What the printed events leave a client holding: key to resourceVersion. */
    Map<String, String> held() {
        Map<String, String> held = new TreeMap<>();
        printed.forEach((key, versions) -> {
            String last = versions.get(versions.size() - 1);
            if (!last.equals("DELETED")) {
                held.put(key, last);
            }
        });
        return held;
    }

    /**
     * Every change exactly once: per key, the printed versions are the topic's records of that key from the first one
     * printed (the ADDED of the initial events) to the last, none missing and none twice; a key created after the
     * watch started is printed from its first record.
     */
    void assertEveryChangeOnce(List<ConsumerRecord<String, Resource>> truth, List<String> createdAfterStart) {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        for (ConsumerRecord<String, Resource> r : truth) {
            expected.computeIfAbsent(r.key(), k -> new ArrayList<>())
                .add(r.value() == null ? "DELETED" : r.value().getMetadata().getResourceVersion());
        }
        assertThat(printed.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        printed.forEach((key, versions) -> {
            List<String> all = expected.get(key);
            int first = all.indexOf(versions.get(0));
            assertThat(first).as(key + " printed " + versions + ", the topic holds " + all).isNotNegative();
            assertThat(versions).as(key).isEqualTo(all.subList(first, all.size()));
            if (createdAfterStart.stream().anyMatch(key::endsWith)) {
                assertThat(first).as(key + " was created during the watch").isZero();
            }
        });
    }
}
