package io.statesync.topology;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.OrphanPolicy;
import io.statesync.avro.Reason;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** One behaviour per test, on the real topology under TopologyTestDriver. */
class ReconcileTopologyTest extends TopologyTestBase {

    static final String KEY = "WebApp/default/shop";
    static final Map<String, Object> SPEC = Map.of("image", "nginx:1.20", "replicas", 2L);


    private Resource create(String key, Map<String, Object> spec) {
        f.putDesired(TopologyFixture.desiredState(key, spec));
        return last(f.drainResources());
    }

    private Correction converge(Resource r, Map<String, Object> state) {
        List<Correction> cs = f.drainCorrections();
        String ack = cs.isEmpty() ? null : cs.get(cs.size() - 1).getCommandId();
        f.advance(Duration.ofMillis(10));
        f.observe(key(r), r.getMetadata().getUid(), r.getMetadata().getGeneration(), state, ack);
        return cs.isEmpty() ? null : cs.get(cs.size() - 1);
    }

    private static String key(Resource r) {
        return r.getMetadata().getKind() + "/" + r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    }

    private void policy(KindPolicy p) {
        f.kinds.pipeInput(p.getKind(), p);
    }

    @Test
    void shouldAssignUidGenerationOneAndResourceVersionOnCreate() {
        Resource r = create(KEY, SPEC);
        assertThat(r.getMetadata().getUid()).isNotBlank();
        assertThat(r.getMetadata().getGeneration()).isEqualTo(1);
        assertThat(r.getMetadata().getResourceVersion()).isNotBlank();
        assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Progressing);
    }

    @Test
    void shouldIssueIncreasingVersionsButWriteTheRevisionsChangelogOncePerBlock() {
        List<Long> versions = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            versions.add(Long.parseLong(create("WebApp/default/app-" + i, SPEC).getMetadata().getResourceVersion()));
        }
        assertThat(versions).isSorted().doesNotHaveDuplicates();
        String changelog = f.config.getString(AppConfig.APPLICATION_ID) + "-" + StatesyncTopology.REVISION_STORE + "-changelog";
        // The driver commits after every record: without blocks that would be one changelog record per version.
        assertThat(f.driver.createOutputTopic(changelog, new StringDeserializer(), new LongDeserializer()).readValuesToList())
            .containsExactly(1_000L);
    }

    @Test
    void shouldEmitCreateWithReasonMissingWhenNothingIsObserved() {
        create(KEY, SPEC);
        List<Correction> cs = f.drainCorrections();
        assertThat(cs).singleElement().satisfies(c -> {
            assertThat(c.getAction()).isEqualTo(Action.CREATE);
            assertThat(c.getReason()).isEqualTo(Reason.Missing);
            assertThat(c.getAttempt()).isEqualTo(1);
            assertThat(c.getDesiredSpec()).isNotNull();
        });
    }

    @Test
    void shouldAcceptCasWriteWhenExpectedVersionMatches() {
        Resource r = create(KEY, SPEC);
        DesiredState d = TopologyFixture.desiredState(KEY, Map.of("image", "nginx:1.21", "replicas", 2L));
        d.setExpectedResourceVersion(r.getMetadata().getResourceVersion());
        f.putDesired(d, "req-1");
        Resource updated = last(f.drainResources());
        assertThat(updated.getMetadata().getGeneration()).isEqualTo(2);
        assertThat(f.drainEvents()).filteredOn(e -> "req-1".equals(e.getRequestId()))
            .singleElement().satisfies(e -> {
                assertThat(e.getType()).isEqualTo(EventType.Accepted);
                assertThat(e.getResourceVersion()).isEqualTo(updated.getMetadata().getResourceVersion());
            });
    }

    @Test
    void shouldRejectCasWriteWithConflictEventAndChangeNothing() {
        Resource r = create(KEY, SPEC);
        f.drainCorrections();
        DesiredState d = TopologyFixture.desiredState(KEY, Map.of("image", "nginx:9", "replicas", 9L));
        d.setExpectedResourceVersion("999999");
        f.putDesired(d, "req-2");
        assertThat(f.drainResources()).isEmpty();
        assertThat(f.drainCorrections()).isEmpty();
        assertThat(f.drainEvents()).filteredOn(e -> "req-2".equals(e.getRequestId())).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo(EventType.Conflict);
            assertThat(e.getResourceVersion()).isEqualTo(r.getMetadata().getResourceVersion());
        });
    }

    @Test
    void shouldCarryRequestIdHeaderOnAdmissionEvent() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC), "req-3");
        TestRecord<String, ReconcileEvent> rec = f.events.readRecordsToList().stream()
            .filter(e -> e.value().getType() == EventType.Accepted).findFirst().orElseThrow();
        Header h = rec.headers().lastHeader(StatesyncHeaders.REQUEST_ID);
        assertThat(new String(h.value(), StandardCharsets.UTF_8)).isEqualTo("req-3");
    }

    @Test
    void shouldNotBumpGenerationWhenOnlyLabelsChange() {
        create(KEY, SPEC);
        DesiredState d = TopologyFixture.desiredState(KEY, SPEC);
        d.setLabels(Map.of("team", "web"));
        f.putDesired(d);
        Resource r = last(f.drainResources());
        assertThat(r.getMetadata().getGeneration()).isEqualTo(1);
        assertThat(r.getMetadata().getLabels()).containsEntry("team", "web");
    }

    @Test
    void shouldBumpGenerationByOneWhenSpecChanges() {
        create(KEY, SPEC);
        f.putDesired(TopologyFixture.desiredState(KEY, Map.of("image", "nginx:1.21", "replicas", 2L)));
        assertThat(last(f.drainResources()).getMetadata().getGeneration()).isEqualTo(2);
    }

    @Test
    void shouldEmitNothingForAnIdenticalResend() {
        Resource r = create(KEY, SPEC);
        converge(r, SPEC);
        f.drainResources();
        f.drainEvents();
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC));
        assertThat(f.drainResources()).isEmpty();
        assertThat(f.drainCorrections()).isEmpty();
        assertThat(f.drainEvents()).isEmpty();
    }

    @Test
    void shouldEmitDriftCorrectionWhenObservedDrifts() {
        Resource r = create(KEY, SPEC);
        converge(r, SPEC);
        f.advance(Duration.ofSeconds(1));
        f.observe(KEY, r.getMetadata().getUid(), 1, Map.of("image", "nginx:1.20", "replicas", 7L), null);
        assertThat(f.drainCorrections()).singleElement().satisfies(c -> {
            assertThat(c.getReason()).isEqualTo(Reason.Drift);
            assertThat(c.getAction()).isEqualTo(Action.UPDATE);
        });
    }

    @Test
    void shouldCorrectTheSameDriftAgainAfterItConverged() {
        Resource r = create(KEY, SPEC);
        converge(r, SPEC);
        Map<String, Object> drifted = Map.of("image", "nginx:1.20", "replicas", 7L);
        for (int round = 0; round < 2; round++) {
            f.advance(Duration.ofSeconds(1));
            f.observe(KEY, r.getMetadata().getUid(), 1, drifted, null);
            List<Correction> cs = f.drainCorrections();
            int expectedAttempt = round + 2;
            assertThat(cs).as("round %d", round).singleElement().satisfies(c -> {
                assertThat(c.getReason()).isEqualTo(Reason.Drift);
                assertThat(c.getAttempt()).as("attempts number the corrections of one generation").isEqualTo(expectedAttempt);
            });
            f.advance(Duration.ofMillis(10));
            f.observe(KEY, r.getMetadata().getUid(), 1, SPEC, cs.get(0).getCommandId());
        }
        assertThat(last(f.drainResources()).getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
    }

    @Test
    void shouldNotReEmitResourceForHeartbeatReports() {
        Resource r = create(KEY, SPEC);
        converge(r, SPEC);
        f.drainResources();
        for (int i = 0; i < 5; i++) {
            f.advance(Duration.ofSeconds(1));
            f.observe(KEY, r.getMetadata().getUid(), 1, SPEC, null);
        }
        assertThat(f.drainResources()).isEmpty();
    }

    @Test
    void shouldIgnoreStaleObservationFromAnOlderTime() {
        Resource r = create(KEY, SPEC);
        converge(r, SPEC);
        f.drainResources();
        var old = io.statesync.avro.ObservedState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setUid(r.getMetadata().getUid()).setObservedGeneration(1)
            .setState(TopologyFixture.spec(Map.of("image", "old", "replicas", 1L)))
            .setObservedAt(TopologyFixture.START.minusSeconds(60)).build();
        f.observed.pipeInput(KEY, old);
        assertThat(f.drainCorrections()).isEmpty();
        assertThat(f.drainResources()).isEmpty();
    }

    @Test
    void shouldIgnoreObservationAboutAnotherUid() {
        Resource r = create(KEY, SPEC);
        converge(r, SPEC);
        f.drainResources();
        f.advance(Duration.ofSeconds(1));
        f.observe(KEY, "another-uid", 1, Map.of("image", "x", "replicas", 1L), null);
        assertThat(f.drainCorrections()).isEmpty();
    }

    @Test
    void shouldRetryWithBackoffThenStallAfterMaxAttempts() {
        policy(KindPolicy.newBuilder().setKind("WebApp").setCorrectionDeadlineMs(1_000L).setBackoffBaseMs(100L)
            .setBackoffCapMs(200L).setMaxAttempts(3).build());
        create(KEY, SPEC);
        assertThat(f.drainCorrections()).extracting(Correction::getAttempt).containsExactly(1);
        for (int i = 0; i < 10; i++) {
            f.advance(Duration.ofMillis(500));
        }
        List<Correction> retries = f.drainCorrections();
        assertThat(retries).extracting(Correction::getAttempt).containsExactly(2, 3);
        assertThat(retries).extracting(Correction::getReason).containsOnly(Reason.Retry);
        for (int i = 0; i < 10; i++) {
            f.advance(Duration.ofMillis(500));
        }
        assertThat(f.drainCorrections()).isEmpty();
        assertThat(last(f.drainResources()).getStatus().getSyncStatus()).isEqualTo(SyncStatus.Stalled);
        assertThat(f.drainEvents()).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo(EventType.Warning);
            assertThat(e.getReason()).isEqualTo("Stalled");
        });
    }

    @Test
    void shouldResetAttemptsOnNewGeneration() {
        policy(KindPolicy.newBuilder().setKind("WebApp").setCorrectionDeadlineMs(1_000L).setBackoffBaseMs(100L)
            .setBackoffCapMs(200L).setMaxAttempts(2).build());
        create(KEY, SPEC);
        for (int i = 0; i < 10; i++) {
            f.advance(Duration.ofMillis(500));
        }
        assertThat(last(f.drainResources()).getStatus().getSyncStatus()).isEqualTo(SyncStatus.Stalled);
        f.drainCorrections();
        f.putDesired(TopologyFixture.desiredState(KEY, Map.of("image", "nginx:1.22", "replicas", 2L)));
        assertThat(f.drainCorrections()).singleElement().satisfies(c -> {
            assertThat(c.getAttempt()).isEqualTo(1);
            assertThat(c.getGeneration()).isEqualTo(2);
        });
    }

    @Test
    void shouldDeleteAfterObservedAbsenceWhenNoFinalizers() {
        Resource r = create(KEY, SPEC);
        converge(r, SPEC);
        f.drainResources();
        f.deleteDesired(KEY);
        assertThat(f.drainCorrections()).singleElement().satisfies(c -> {
            assertThat(c.getAction()).isEqualTo(Action.DELETE);
            assertThat(c.getReason()).isEqualTo(Reason.Deletion);
        });
        Resource deleting = last(f.drainResources());
        assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(deleting.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Deleting);
        f.advance(Duration.ofMillis(10));
        f.observeTombstone(KEY);
        var records = f.resources.readRecordsToList();
        assertThat(records).isNotEmpty();
        assertThat(records.get(records.size() - 1).value()).as("Resource tombstone").isNull();
    }

    @Test
    void shouldKeepResourceUntilForeignFinalizersAreRemoved() {
        DesiredState d = TopologyFixture.desiredState(KEY, SPEC);
        d.setFinalizers(List.of("example.com/backup"));
        f.putDesired(d);
        Resource r = last(f.drainResources());
        converge(r, SPEC);
        f.deleteDesired(KEY);
        f.advance(Duration.ofMillis(10));
        f.observeTombstone(KEY);
        List<Resource> rs = f.drainResources();
        assertThat(rs).isNotEmpty().allSatisfy(x -> assertThat(x).isNotNull());
        assertThat(last(rs).getMetadata().getFinalizers()).containsExactly("example.com/backup");
        DesiredState release = TopologyFixture.desiredState(KEY, SPEC);
        f.putDesired(release);
        var records = f.resources.readRecordsToList();
        assertThat(records.get(records.size() - 1).value()).as("tombstone once finalizers are gone").isNull();
    }

    @Test
    void shouldRemovePolicyFinalizersItselfOnObservedDeletion() {
        policy(KindPolicy.newBuilder().setKind("WebApp").setFinalizers(List.of("statesync.io/cleanup")).build());
        DesiredState d = TopologyFixture.desiredState(KEY, SPEC);
        d.setFinalizers(List.of("statesync.io/cleanup"));
        f.putDesired(d);
        converge(last(f.drainResources()), SPEC);
        f.deleteDesired(KEY);
        f.advance(Duration.ofMillis(10));
        f.observeTombstone(KEY);
        var records = f.resources.readRecordsToList();
        assertThat(records.get(records.size() - 1).value()).isNull();
    }

    @Test
    void shouldIgnoreOrphanWhenPolicyIsIgnore() {
        policy(KindPolicy.newBuilder().setKind("WebApp").setOrphanPolicy(OrphanPolicy.IGNORE).build());
        f.observe(KEY, "u1", 0, SPEC, null);
        assertThat(f.drainResources()).isEmpty();
        assertThat(f.drainCorrections()).isEmpty();
    }

    @Test
    void shouldReportOrphanWhenPolicyIsReport() {
        f.observe(KEY, "u1", 0, SPEC, null);
        assertThat(last(f.drainResources()).getStatus().getSyncStatus()).isEqualTo(SyncStatus.Orphaned);
        assertThat(f.drainCorrections()).isEmpty();
        assertThat(f.drainEvents()).anySatisfy(e -> assertThat(e.getReason()).isEqualTo("OrphanDetected"));
    }

    @Test
    void shouldPruneOrphanWhenPolicyIsPrune() {
        policy(KindPolicy.newBuilder().setKind("WebApp").setOrphanPolicy(OrphanPolicy.PRUNE).build());
        f.observe(KEY, "u1", 0, SPEC, null);
        assertThat(f.drainCorrections()).singleElement().satisfies(c -> {
            assertThat(c.getAction()).isEqualTo(Action.DELETE);
            assertThat(c.getReason()).isEqualTo(Reason.Orphaned);
        });
        f.advance(Duration.ofMillis(10));
        f.observeTombstone(KEY);
        var records = f.resources.readRecordsToList();
        assertThat(records.get(records.size() - 1).value()).isNull();
    }

    @Test
    void shouldSendBadBytesToDlqWithReasonAndKeepProcessing() {
        f.rawDesired.pipeInput(KEY.getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3, 4, 5, 6});
        f.rawDesired.pipeInput("not a key".getBytes(StandardCharsets.UTF_8), new byte[] {0});
        create(KEY, SPEC);
        var dead = f.dlq.readRecordsToList();
        assertThat(dead).hasSize(2);
        assertThat(new String(dead.get(0).headers().lastHeader(StatesyncHeaders.DLQ_ERROR_REASON).value(), StandardCharsets.UTF_8))
            .isEqualTo("Deserialization");
        assertThat(new String(dead.get(1).headers().lastHeader(StatesyncHeaders.DLQ_ERROR_REASON).value(), StandardCharsets.UTF_8))
            .isEqualTo("InvalidKey");
        assertThat(dead.get(0).value()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(dead.get(0).headers().lastHeader(StatesyncHeaders.DLQ_SOURCE_TOPIC)).isNotNull();
    }

    @Test
    void shouldSendASpecDeeperThanTheLimitToDlqAndAcceptOneAtTheLimit() {
        f.desired.pipeInput(KEY, TopologyFixture.desiredState(KEY, nested(65)));
        f.desired.pipeInput("WebApp/default/at-limit", TopologyFixture.desiredState("WebApp/default/at-limit", nested(64)));

        assertThat(f.dlq.readRecordsToList()).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo(KEY.getBytes(StandardCharsets.UTF_8));
            assertThat(new String(r.headers().lastHeader(StatesyncHeaders.DLQ_ERROR_REASON).value(), StandardCharsets.UTF_8))
                .isEqualTo("TooDeep");
        });
        f.advance(Duration.ofMillis(10));
        assertThat(f.drainResources()).extracting(r -> r.getMetadata().getName()).containsExactly("at-limit");
    }

    /** A spec of {@code levels} levels: the spec map itself, nested maps, and a string at the bottom. */
    private static Map<String, Object> nested(int levels) {
        Object v = "leaf";
        for (int i = 2; i < levels; i++) {
            v = Map.of("a", v);
        }
        return Map.of("a", v);
    }

    @Test
    void shouldSendKeyValueMismatchToDlq() {
        DesiredState d = TopologyFixture.desiredState("WebApp/default/other", SPEC);
        f.desired.pipeInput(KEY, d);
        assertThat(f.dlq.readRecordsToList()).singleElement().satisfies(r ->
            assertThat(new String(r.headers().lastHeader(StatesyncHeaders.DLQ_ERROR_REASON).value(), StandardCharsets.UTF_8))
                .isEqualTo("KeyMismatch"));
        assertThat(f.drainResources()).isEmpty();
    }

    @Test
    void shouldMarkObservationStaleAfterTheStalenessBound() {
        policy(KindPolicy.newBuilder().setKind("WebApp").setStalenessBoundMs(1_000L).build());
        Resource r = create(KEY, SPEC);
        converge(r, SPEC);
        f.drainResources();
        for (int i = 0; i < 5; i++) {
            f.advance(Duration.ofMillis(500));
        }
        Resource stale = last(f.drainResources());
        assertThat(stale.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("ObservedStale");
            assertThat(c.getStatus()).isEqualTo("True");
        });
    }
}
