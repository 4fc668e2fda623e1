package io.statesync.rest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.avro.Condition;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

/** The reported status in {@code .status}: beside statesync's fields, which win a clash of names or condition types. */
class ReportedStatusJsonTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void shouldShowReportedFieldsAndConditionsBesideStatesyncsOwnWhichWin() {
        Resource r = RenderedJsonCacheTest.resource("shop", "3");
        r.getStatus().setSyncStatus(SyncStatus.Progressing);
        r.getStatus().setConditions(List.of(new Condition("Synced", "False", "Progressing", "", T, null)));
        r.getStatus().setReported(Values.fromJava(Map.of("readyReplicas", 2L, "syncStatus", "Synced", "health", "fine")));
        r.getStatus().setReportedConditions(List.of(new Condition("Ready", "True", "AllReady", "", T, 1L),
            new Condition("Synced", "True", "AgentSaysSo", "", T, null)));

        JsonNode status = ResourceJson.toJson(r).path("status");

        assertThat(status.path("readyReplicas").asInt()).isEqualTo(2);
        assertThat(status.path("syncStatus").asText()).isEqualTo("Progressing");
        assertThat(status.path("health").isObject()).as("statesync's health, not the reported one").isTrue();
        assertThat(status.path("conditions").findValuesAsText("type")).containsExactly("Synced", "Ready");
        assertThat(status.path("conditions").findValuesAsText("reason")).containsExactly("Progressing", "AllReady");
        assertThat(status.path("conditions").get(1).path("observedGeneration").asLong()).isEqualTo(1);
    }

    @Test
    void shouldShowNothingMoreWithoutAReport() {
        JsonNode status = ResourceJson.toJson(RenderedJsonCacheTest.resource("shop", "3")).path("status");

        assertThat(status.has("readyReplicas")).isFalse();
        assertThat(status.path("conditions")).isEmpty();
    }
}
