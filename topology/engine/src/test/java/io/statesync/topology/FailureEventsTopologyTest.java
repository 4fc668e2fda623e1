package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.avro.ApplyError;
import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.EventType;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Reason;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * Failures told apart by the real topology under TopologyTestDriver: an agent's terminal error, a transient one, and a
 * merge conflict, each with its events, conditions and metrics.
 */
class FailureEventsTopologyTest extends TopologyTestBase {

    static final String KEY = "WebApp/default/shop";
    static final Map<String, Object> SPEC = Map.of("image", "nginx:::bad", "replicas", 2L);

    private void policy(int maxAttempts) {
        f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setCorrectionDeadlineMs(1_000L)
            .setBackoffBaseMs(100L).setBackoffCapMs(200L).setMaxAttempts(maxAttempts).build());
    }

    private Resource create(Map<String, Object> spec) {
        f.putDesired(TopologyFixture.desiredState(KEY, spec));
        return last(f.drainResources());
    }

    /** The agent answers {@code c}: it could not apply it, and the world is as {@code state} (null: absent). */
    private void failed(Correction c, Map<String, Object> state, boolean terminal, String message) {
        f.advance(Duration.ofMillis(10));
        ObservedState o = ObservedState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setUid(c.getUid()).setObservedGeneration(0).setState(state == null ? null : TopologyFixture.spec(state))
            .setObservedAt(f.now()).setReporter("test").setAckCommandId(c.getCommandId())
            .setError(new ApplyError(message, terminal, c.getCommandId(), c.getGeneration())).build();
        f.observed.pipeInput(new TestRecord<>(KEY, o, f.now()));
    }

    private static Condition condition(Resource r, String type) {
        return r.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
    }

    private void advance(int times, Duration step) {
        for (int i = 0; i < times; i++) {
            f.advance(step);
        }
    }

    @Test
    void shouldStallAtOnceWithApplyFailedOnATerminalErrorAndNotRetryUntilANewGeneration() {
        policy(10);
        create(SPEC);
        Correction create = f.drainCorrections().get(0);
        f.drainEvents();

        failed(create, null, true, "invalid image name nginx:::bad");

        Resource stalled = last(f.drainResources());
        assertThat(stalled.getStatus().getSyncStatus()).as("at once, not after maxAttempts").isEqualTo(SyncStatus.Stalled);
        assertThat(condition(stalled, "Stalled").getStatus()).isEqualTo("True");
        assertThat(condition(stalled, "Stalled").getReason()).isEqualTo("TerminalError");
        assertThat(condition(stalled, "Stalled").getMessage()).isEqualTo("invalid image name nginx:::bad");
        List<ReconcileEvent> events = f.drainEvents();
        assertThat(events).extracting(ReconcileEvent::getReason).containsSubsequence("ApplyFailed", "Stalled");
        assertThat(events).filteredOn(e -> e.getReason().equals("ApplyFailed")).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo(EventType.Warning);
            assertThat(e.getMessage()).contains("invalid image name nginx:::bad");
        });

        advance(40, Duration.ofMillis(500));
        assertThat(f.drainCorrections()).as("no retries of a terminal failure").isEmpty();

        f.putDesired(TopologyFixture.desiredState(KEY, Map.of("image", "nginx:1.21", "replicas", 2L)));
        assertThat(f.drainCorrections()).as("a new generation corrects again").singleElement().satisfies(c -> {
            assertThat(c.getGeneration()).isEqualTo(2);
            assertThat(c.getReason()).isEqualTo(Reason.Missing);
        });
        assertThat(last(f.drainResources()).getStatus().getSyncStatus()).isEqualTo(SyncStatus.Progressing);
    }

    @Test
    void shouldRetryATransientErrorWithBackoffAndRetryingEventsThatAggregate() {
        policy(10);
        create(SPEC);
        Correction first = f.drainCorrections().get(0);
        assertThat(f.drainEvents()).extracting(ReconcileEvent::getReason).contains("CorrectionIssued");

        failed(first, null, false, "registry unreachable");
        assertThat(f.drainCorrections()).as("a backoff first, not an immediate retry").isEmpty();
        assertThat(last(f.drainResources()).getStatus().getSyncStatus()).isEqualTo(SyncStatus.OutOfSync);

        advance(2, Duration.ofMillis(200));
        Correction retry = f.drainCorrections().get(0);
        assertThat(retry.getReason()).isEqualTo(Reason.Retry);
        failed(retry, null, false, "registry unreachable");
        advance(2, Duration.ofMillis(200));
        assertThat(f.drainCorrections()).extracting(Correction::getReason).containsExactly(Reason.Retry);

        List<ReconcileEvent> retrying = f.drainEvents().stream().filter(e -> e.getReason().equals("Retrying")).toList();
        assertThat(retrying).hasSize(2).allSatisfy(e -> {
            assertThat(e.getType()).isEqualTo(EventType.Warning);
            assertThat(e.getMessage()).contains("registry unreachable");
        });
        assertThat(retrying.get(0).getMessage()).as("repeats aggregate: same type, reason and message")
            .isEqualTo(retrying.get(1).getMessage());
        assertThat(f.drainResources()).extracting(r -> r.getStatus().getSyncStatus()).doesNotContain(SyncStatus.Stalled);
    }

    @Test
    void shouldReportAMergeConflictAsAnEventAConditionAndAMetricUntilSynced() {
        Map<String, Object> spec = Map.of("replicas", 2L);
        Resource r = create(spec);
        Correction create = f.drainCorrections().get(0);
        f.advance(Duration.ofMillis(10));
        f.observe(KEY, r.getMetadata().getUid(), 1, spec, create.getCommandId());
        f.advance(Duration.ofMillis(10));
        f.observe(KEY, r.getMetadata().getUid(), 1, Map.of("replicas", 3L), null);
        assertThat(f.drainCorrections()).extracting(Correction::getReason).containsExactly(Reason.Drift);
        assertThat(f.drainEvents()).extracting(ReconcileEvent::getReason).contains("DriftDetected")
            .doesNotContain("MergeConflict");
        double before = conflicts();

        f.putDesired(TopologyFixture.desiredState(KEY, Map.of("replicas", 5L)));

        assertThat(f.drainCorrections()).singleElement().satisfies(c -> assertThat(c.getGeneration()).isEqualTo(2));
        Resource conflicted = last(f.drainResources());
        assertThat(condition(conflicted, "MergeConflict").getStatus()).isEqualTo("True");
        assertThat(condition(conflicted, "MergeConflict").getMessage()).contains("replicas");
        assertThat(f.drainEvents()).filteredOn(e -> e.getReason().equals("MergeConflict")).singleElement()
            .satisfies(e -> {
                assertThat(e.getType()).isEqualTo(EventType.Warning);
                assertThat(e.getMessage()).contains("replicas");
            });
        assertThat(conflicts() - before).isEqualTo(1.0);

        f.advance(Duration.ofMillis(10));
        f.observe(KEY, r.getMetadata().getUid(), 2, Map.of("replicas", 5L), null);
        Resource synced = last(f.drainResources());
        assertThat(synced.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(condition(synced, "MergeConflict").getStatus()).isEqualTo("False");
        assertThat(conflicts() - before).as("counted once").isEqualTo(1.0);
    }

    @Test
    void shouldEmitNoEventsForAHeartbeatThatChangesNothing() {
        Map<String, Object> spec = Map.of("replicas", 2L);
        Resource r = create(spec);
        Correction create = f.drainCorrections().get(0);
        f.advance(Duration.ofMillis(10));
        f.observe(KEY, r.getMetadata().getUid(), 1, spec, create.getCommandId());
        assertThat(f.drainEvents()).extracting(ReconcileEvent::getReason).contains("Synced", "HealthChanged");

        for (int i = 0; i < 5; i++) {
            f.advance(Duration.ofMillis(10));
            f.observe(KEY, r.getMetadata().getUid(), 1, spec, create.getCommandId());
        }

        assertThat(f.drainEvents()).as("one event per change, not one per reconcile").isEmpty();
    }

    private double conflicts() {
        var c = f.metrics.registry().find("statesync_conflicts_total").tags("kind", "WebApp", "type", "FieldValue")
            .counter();
        return c == null ? 0 : c.count();
    }
}
