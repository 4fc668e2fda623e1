package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.Condition;
import io.statesync.avro.PatchType;
import io.statesync.config.AppConfig;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

/** How a status write makes its report: what it applies to, what statesync keeps for itself, and its bounds. */
class StatusSubresourceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final WriteAdmission.Limits LIMITS = WriteAdmission.Limits.of(new AppConfig(Map.of(
        AppConfig.SPEC_MAX_BYTES, 2_048, AppConfig.SPEC_MAX_DEPTH, 10)));

    /** The object as a client sees it: statesync's fields and a reported readyReplicas. */
    private static ObjectNode shown() throws Exception {
        return (ObjectNode) JSON.readTree("{\"metadata\":{\"name\":\"a\",\"generation\":2},\"spec\":{\"replicas\":3},"
            + "\"status\":{\"observedGeneration\":1,\"syncStatus\":\"Progressing\",\"readyReplicas\":1,\"conditions\":["
            + "{\"type\":\"Synced\",\"status\":\"False\",\"reason\":\"Progressing\",\"message\":\"\"}]}}");
    }

    private static StatusSubresource.Outcome report(PatchType type, String body) throws Exception {
        return StatusSubresource.report(shown(), type, JSON.readTree(body), List.of(), NOW, LIMITS);
    }

    @Test
    void shouldMergeAPatchIntoTheShownStatusAndKeepOnlyTheReportedFields() throws Exception {
        StatusSubresource.Report r = report(PatchType.MergePatch, "{\"status\":{\"phase\":\"Up\"},\"spec\":{\"x\":1}}").report();

        assertThat(Values.toJava(r.status())).isEqualTo(Map.of("readyReplicas", 1L, "phase", "Up"));
        assertThat(r.observedGeneration()).as("carried from the status as shown").isEqualTo(1);
        assertThat(r.conditions()).isEmpty();
        assertThat(r.warnings()).as("statesync's fields came back as shown").isEmpty();
    }

    @Test
    void shouldReplaceTheStatusOnAPutAndApplyAJsonPatchToTheObject() throws Exception {
        StatusSubresource.Report put = report(null, "{\"status\":{\"observedGeneration\":2,\"conditions\":["
            + "{\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"2025-12-31T23:00:00Z\",\"observedGeneration\":2}]}}")
            .report();
        StatusSubresource.Report patched = report(PatchType.JsonPatch,
            "[{\"op\":\"replace\",\"path\":\"/status/readyReplicas\",\"value\":3}]").report();

        assertThat(Values.toJava(put.status())).isEqualTo(Map.of());
        assertThat(put.observedGeneration()).isEqualTo(2);
        assertThat(put.conditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getLastTransitionTime()).isEqualTo(Instant.parse("2025-12-31T23:00:00Z"));
            assertThat(c.getObservedGeneration()).isEqualTo(2L);
        });
        assertThat(Values.toJava(patched.status())).isEqualTo(Map.of("readyReplicas", 3L));
    }

    @Test
    void shouldDropStatesyncsOwnFieldsAndConditionsWithAWarningWhenTheWriteChangedThem() throws Exception {
        StatusSubresource.Report r = report(PatchType.MergePatch, "{\"status\":{\"syncStatus\":\"Synced\",\"conditions\":["
            + "{\"type\":\"Synced\",\"status\":\"True\"},{\"type\":\"Ready\",\"status\":\"False\"}]}}").report();

        assertThat(r.conditions()).extracting(Condition::getType).containsExactly("Ready");
        assertThat(r.conditions().get(0).getLastTransitionTime()).isEqualTo(NOW);
        assertThat(Values.toJava(r.status())).isEqualTo(Map.of("readyReplicas", 1L));
        assertThat(r.warnings()).hasSize(2).anySatisfy(w -> assertThat(w).contains("status.syncStatus"))
            .anySatisfy(w -> assertThat(w).contains("Synced"));
    }

    @Test
    void shouldKeepAConditionsTransitionTimeWhileItsStatusHolds() throws Exception {
        Instant before = Instant.parse("2025-06-01T00:00:00Z");
        List<Condition> previous = List.of(new Condition("Ready", "True", "", "", before, null));
        JsonNode body = JSON.readTree("{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");

        StatusSubresource.Report r = StatusSubresource.report(shown(), PatchType.MergePatch, body, previous, NOW, LIMITS)
            .report();

        assertThat(r.conditions().get(0).getLastTransitionTime()).isEqualTo(before);
    }

    @Test
    void shouldRefuseAStatusOverItsBoundsAndMalformedConditions() throws Exception {
        WriteAdmission.Refused large = report(PatchType.MergePatch, "{\"status\":{\"blob\":\"" + "x".repeat(4_000) + "\"}}")
            .refused();
        WriteAdmission.Refused deep = report(null, "{\"status\":" + "{\"a\":".repeat(20) + "1" + "}".repeat(20) + "}")
            .refused();
        WriteAdmission.Refused untyped = report(null, "{\"status\":{\"conditions\":[{\"status\":\"True\"}]}}").refused();
        WriteAdmission.Refused notAList = report(null, "{\"status\":{\"conditions\":{}}}").refused();
        WriteAdmission.Refused badTime = report(null, "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\","
            + "\"lastTransitionTime\":\"yesterday\"}]}}").refused();
        WriteAdmission.Refused notAnObject = report(null, "{\"status\":[1]}").refused();

        assertThat(large.reason()).isEqualTo(StatusSubresource.STATUS_TOO_LARGE);
        assertThat(deep.reason()).isEqualTo(WriteAdmission.INVALID);
        assertThat(List.of(untyped, notAList, badTime, notAnObject))
            .allSatisfy(r -> assertThat(r.reason()).isEqualTo(WriteAdmission.INVALID));
    }
}
