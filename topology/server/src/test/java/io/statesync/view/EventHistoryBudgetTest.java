package io.statesync.view;

import java.time.Instant;
import java.util.Map;

import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventHistoryBudgetTest {

    private static final long BUDGET = 256 * 1024;

    @Test
    void shouldEvictTheOldestEntriesOnceTheHistoryPassesItsByteBudget() {
        AppConfig config = new AppConfig(Map.of(AppConfig.BOOTSTRAP_SERVERS, "localhost:1",
            AppConfig.SCHEMA_REGISTRY_URL, "http://localhost:1", ServerConfig.EVENTS_HISTORY_BYTES, BUDGET));
        try (EventHistory history = new EventHistory(config, new TopicNames(config.topicPrefix()), new TopologySerdes(config))) {
            String big = "x".repeat(4_000);
            for (int i = 0; i < 2_000; i++) {
                history.add(event("r" + (i % 50), "message " + i + " " + big, i));
                assertThat(history.bytes()).as("bytes after event %d", i).isLessThanOrEqualTo(BUDGET + 10_000);
            }
            assertThat(history.events("Kind/default/r49")).as("the newest entry stays").isNotEmpty();
            assertThat(history.events("Kind/default/r49").get(0).message()).startsWith("message 1999 ");
            long held = history.events("Kind/default/r0").size();
            assertThat(held).as("each resource keeps only its newest entries").isLessThan(5);
        }
    }

    private static ReconcileEvent event(String name, String message, int n) {
        return ReconcileEvent.newBuilder().setEventId("e" + n).setType(EventType.Normal).setReason("Converged")
            .setMessage(message).setKind("Kind").setNamespace("default").setName(name)
            .setResourceVersion(String.valueOf(n)).setTimestamp(Instant.now()).build();
    }
}
