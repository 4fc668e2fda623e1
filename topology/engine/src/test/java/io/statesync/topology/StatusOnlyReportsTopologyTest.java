package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Condition;
import io.statesync.avro.EventType;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.schemas.Values;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * Writes to the status subresource reach the engine as status-only observations: they keep the observed spec, are
 * refused for a missing resource or a stale precondition, answer their writer, and show as the reported status.
 */
class StatusOnlyReportsTopologyTest extends TopologyTestBase {

    private static final String KEY = "WebApp/default/shop";

    private Resource settle(Map<String, Object> spec) {
        f.putDesired(TopologyFixture.desiredState(KEY, spec));
        f.advance(Duration.ofSeconds(1));
        return last();
    }

    private Resource last() {
        List<Resource> rs = f.drainResources();
        return rs.isEmpty() ? null : rs.get(rs.size() - 1);
    }

    /** A status write as the REST API produces it, awaited under {@code answerId}. */
    private ReconcileEvent writeStatus(String key, long generation, Map<String, ?> status, String expected, String answerId) {
        ResourceKey rk = ResourceKey.parse(key);
        ObservedState o = ObservedState.newBuilder().setKind(rk.kind()).setNamespace(rk.namespace()).setName(rk.name())
            .setObservedGeneration(generation).setStatus(Values.fromJava(status))
            .setConditions(List.of(new Condition("Ready", "True", "AllReady", "", f.now(), null)))
            .setObservedAt(f.now()).setReporter("my-controller").build();
        RecordHeaders h = new RecordHeaders();
        h.add(StatesyncHeaders.OBSERVED_STATUS_ONLY, new byte[0]);
        h.add(StatesyncHeaders.ANSWER_ID, answerId.getBytes(StandardCharsets.UTF_8));
        if (expected != null) {
            h.add(StatesyncHeaders.EXPECTED_RESOURCE_VERSION, expected.getBytes(StandardCharsets.UTF_8));
        }
        f.observed.pipeInput(new TestRecord<>(key, o, h, f.now()));
        return f.events.readRecordsToList().stream()
            .filter(r -> r.headers().lastHeader(StatesyncHeaders.ANSWER_ID) != null
                && answerId.equals(new String(r.headers().lastHeader(StatesyncHeaders.ANSWER_ID).value(), StandardCharsets.UTF_8)))
            .map(TestRecord::value).reduce((a, b) -> b).orElse(null);
    }

    @Test
    void shouldBeSyncedWhenAControllerReportsOnlyStatusAtTheGeneration() {
        Resource created = settle(Map.of("replicas", 2L));
        assertThat(created.getStatus().getSyncStatus()).isNotEqualTo(SyncStatus.Synced);

        ReconcileEvent answer = writeStatus(KEY, 1, Map.of("readyReplicas", 2L), null, "a1");
        Resource after = last();

        assertThat(answer.getType()).isEqualTo(EventType.Accepted);
        assertThat(after.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(answer.getResourceVersion()).isEqualTo(after.getMetadata().getResourceVersion());
        assertThat(Values.toJava(after.getStatus().getReported())).isEqualTo(Map.of("readyReplicas", 2L));
        assertThat(after.getStatus().getReportedConditions()).extracting(Condition::getType).containsExactly("Ready");
        assertThat(after.getSpec()).isEqualTo(created.getSpec());
        assertThat(after.getMetadata().getGeneration()).isEqualTo(1);
    }

    /** A resource at generation 1 whose controller reported readyReplicas 2 at that generation. */
    private void settleWithReport() {
        settle(Map.of("replicas", 2L));
        writeStatus(KEY, 1, Map.of("readyReplicas", 2L), null, "a1");
        f.drainResources();
    }

    @Test
    void shouldStayProgressingUntilTheReportedGenerationReachesTheSpecs() {
        settleWithReport();
        Resource second = settle(Map.of("replicas", 3L));
        writeStatus(KEY, 1, Map.of("readyReplicas", 2L), null, "a2");
        f.advance(Duration.ofSeconds(1));
        Resource afterOldReport = last();
        SyncStatus behind = (afterOldReport == null ? second : afterOldReport).getStatus().getSyncStatus();

        writeStatus(KEY, 2, Map.of("readyReplicas", 3L), null, "a3");

        assertThat(behind).isNotEqualTo(SyncStatus.Synced);
        assertThat(last().getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
    }

    @Test
    void shouldKeepTheAgentsObservedSpecAndDiffWhenStatusIsWritten() {
        settle(Map.of("replicas", 2L));
        f.observe(KEY, null, 1, Map.of("replicas", 1L), null);
        f.advance(Duration.ofSeconds(1));
        f.drainResources();

        writeStatus(KEY, 1, Map.of("readyReplicas", 1L), null, "a1");
        Resource after = last();

        assertThat(after.getStatus().getSyncStatus()).as("the agent's spec differs from the desired one")
            .isNotEqualTo(SyncStatus.Synced);
        assertThat(after.getStatus().getDiff()).isNotEmpty();
        assertThat(Values.toJava(after.getStatus().getReported())).isEqualTo(Map.of("readyReplicas", 1L));
    }

    @Test
    void shouldRefuseAStaleResourceVersionAndAMissingResource() {
        Resource created = settle(Map.of("replicas", 2L));

        ReconcileEvent stale = writeStatus(KEY, 1, Map.of("readyReplicas", 2L), "999999", "stale");
        ReconcileEvent missing = writeStatus("WebApp/default/nobody", 1, Map.of("readyReplicas", 2L), null, "missing");
        ReconcileEvent current = writeStatus(KEY, 1, Map.of("readyReplicas", 2L),
            created.getMetadata().getResourceVersion(), "current");

        assertThat(stale.getType()).isEqualTo(EventType.Conflict);
        assertThat(missing.getType()).isEqualTo(EventType.Invalid);
        assertThat(missing.getReason()).isEqualTo(WriteAdmission.NOT_FOUND);
        assertThat(current.getType()).isEqualTo(EventType.Accepted);
    }

    @Test
    void shouldKeepTheReportedStatusAcrossASpecWrite() {
        settleWithReport();

        Resource afterSpec = settle(Map.of("replicas", 5L));

        assertThat(afterSpec.getMetadata().getGeneration()).isEqualTo(2);
        assertThat(Values.toJava(afterSpec.getStatus().getReported())).isEqualTo(Map.of("readyReplicas", 2L));
    }

    @Test
    void shouldDeleteAResourceOnlyStatusWritesObservedOnceItsFinalizersAreGone() {
        settleWithReport();

        f.deleteDesired(KEY);
        f.advance(Duration.ofSeconds(1));
        List<Resource> after = f.drainResources();

        assertThat(after).as("the tombstone, without waiting for an absent report").isNotEmpty();
        assertThat(after.get(after.size() - 1)).isNull();
    }

    @Test
    void shouldAnswerAStatusWriteThatDoesNotDecodeInsteadOfLeavingItsWriterWaiting() {
        RecordHeaders h = new RecordHeaders();
        h.add(StatesyncHeaders.OBSERVED_STATUS_ONLY, new byte[0]);
        h.add(StatesyncHeaders.ANSWER_ID, "bad".getBytes(StandardCharsets.UTF_8));

        f.rawObserved.pipeInput(new TestRecord<>(KEY.getBytes(StandardCharsets.UTF_8), new byte[] {0, 1, 2}, h, f.now()));
        List<TestRecord<String, ReconcileEvent>> answers = f.events.readRecordsToList();

        assertThat(answers).singleElement().satisfies(r -> {
            assertThat(r.value().getType()).isEqualTo(EventType.Invalid);
            assertThat(new String(r.headers().lastHeader(StatesyncHeaders.ANSWER_ID).value(), StandardCharsets.UTF_8))
                .isEqualTo("bad");
        });
    }

    @Test
    void shouldShowAnAgentsReportedStatus() {
        settle(Map.of("replicas", 2L));
        ResourceKey rk = ResourceKey.parse(KEY);
        f.observed.pipeInput(new TestRecord<>(KEY, ObservedState.newBuilder().setKind(rk.kind())
            .setNamespace(rk.namespace()).setName(rk.name()).setObservedGeneration(1)
            .setState(TopologyFixture.spec(Map.of("replicas", 2L))).setStatus(Values.fromJava(Map.of("readyReplicas", 2L)))
            .setObservedAt(f.now()).setReporter("agent").build(), f.now()));
        f.advance(Duration.ofSeconds(1));

        Resource r = last();

        assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(Values.toJava(r.getStatus().getReported())).isEqualTo(Map.of("readyReplicas", 2L));
    }
}
