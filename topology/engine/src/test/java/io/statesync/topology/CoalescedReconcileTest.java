package io.statesync.topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.topology.internal.DecodedStateStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Coalesced reconciles (the default outside these TTD tests): admission and observation per record, one reconcile per key per batch. */
class CoalescedReconcileTest {

    static final String KEY = "WebApp/default/shop";
    static final Map<String, Object> SPEC = Map.of("image", "nginx:1.20", "replicas", 2L);
    static final Duration BATCH = Duration.ofMillis(20);

    @TempDir
    Path stateDir;
    TopologyFixture f;

    @BeforeEach
    void startDriver() {
        f = new TopologyFixture(stateDir, Map.of(AppConfig.RECONCILE_COALESCE_ENABLED, true,
            AppConfig.RECONCILE_BATCH_INTERVAL_MS, BATCH.toMillis(), AppConfig.RESYNC_INTERVAL_MS, 60_000L));
    }

    @AfterEach
    void closeDriver() {
        f.close();
    }

    @Test
    void shouldEmitNoCorrectionWhenMatchingObservationArrivesInSameBatch() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC));
        f.observe(KEY, null, 1, SPEC, null);
        f.advance(BATCH);
        assertThat(f.drainCorrections()).isEmpty();
        List<Resource> resources = f.drainResources();
        assertThat(resources).singleElement().satisfies(r -> {
            assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
            assertThat(r.getMetadata().getGeneration()).isEqualTo(1);
        });
        assertThat(f.drainEvents()).extracting(ReconcileEvent::getType).containsExactly(EventType.Converged);
    }

    @Test
    void shouldDeferTheReconcileOfAWriteNobodyAwaitsToTheNextBatch() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC));
        assertThat(f.drainResources()).isEmpty();
        assertThat(f.drainCorrections()).isEmpty();
        f.advance(BATCH);
        assertThat(f.drainResources()).singleElement()
            .satisfies(r -> assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Progressing));
        assertThat(f.drainCorrections()).hasSize(1);
    }

    /** The admission answers among the events (a reconcile also emits events such as CorrectionIssued). */
    private List<ReconcileEvent> answers() {
        return f.drainEvents().stream().filter(e -> e.getType() == EventType.Accepted).toList();
    }

    @Test
    void shouldPublishAnAwaitedWriteWithTheAnswerSoAListAfterTheAnswerShowsIt() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC), "req-1");
        ReconcileEvent accepted = answers().get(0);
        assertThat(accepted.getType()).isEqualTo(EventType.Accepted);
        Resource published = f.drainResources().get(0);
        assertThat(published.getMetadata().getResourceVersion()).isEqualTo(accepted.getResourceVersion());
    }

    @Test
    void shouldPublishAnAwaitedWriteWithTheCommitThatAnswersIt() {
        f.putDesired(TopologyFixture.desiredState("WebApp/default/other", SPEC), "req-0");
        f.putAwaitedDesired(TopologyFixture.desiredState(KEY, SPEC), "req-1");
        List<String> answered = answers().stream().map(ReconcileEvent::getResourceVersion).toList();
        assertThat(f.drainResources()).as("every pending key, before the batch is due")
            .extracting(r -> r.getMetadata().getResourceVersion()).containsExactlyInAnyOrderElementsOf(answered);
    }

    @Test
    void shouldPublishEveryAcceptedWriteWhenOneBatchHasSeveralForOneKey() {
        for (long replicas = 1; replicas <= 3; replicas++) {
            f.putDesired(TopologyFixture.desiredState(KEY, Map.of("image", "nginx:1.20", "replicas", replicas)), "req-" + replicas);
        }
        List<String> answered = answers().stream().map(ReconcileEvent::getResourceVersion).toList();
        f.advance(BATCH);
        List<Resource> published = f.drainResources();
        assertThat(published).extracting(r -> r.getMetadata().getResourceVersion()).containsExactlyElementsOf(answered);
        assertThat(published).extracting(r -> r.getMetadata().getGeneration()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void shouldReconcilePendingKeyAfterTheTaskLosesItsMemoryBetweenCommitAndBatch() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC));
        DecodedStateStore store = (DecodedStateStore) (Object) f.driver.getKeyValueStore(StatesyncTopology.STATE_STORE);
        // The driver committed after the record: the state and the pending mark are in the store, the reconcile is not done.
        assertThat(store.wrapped().get(DecodedStateStore.pendingMarker(KEY))).isNotNull();
        store.clearCache();
        f.advance(BATCH);
        assertThat(f.drainCorrections()).singleElement().satisfies(c -> assertThat(c.getAction()).isEqualTo(Action.CREATE));
        assertThat(f.drainResources()).hasSize(1);
        f.advance(BATCH);
        assertThat(store.wrapped().get(DecodedStateStore.pendingMarker(KEY))).isNull();
    }

    @Test
    void shouldKeepOneInstanceOfTheKeysIdentityStringsInItsState() {
        // Longer than the decoder's recent strings hold, so only the engine can make them one instance.
        String key = "WebApp/default/a-name-longer-than-the-thirty-two-bytes-kept";
        f.putDesired(TopologyFixture.desiredState(key, SPEC));
        f.advance(BATCH);
        String commandId = f.drainCorrections().get(0).getCommandId();
        DecodedStateStore store = (DecodedStateStore) (Object) f.driver.getKeyValueStore(StatesyncTopology.STATE_STORE);
        String uid = store.cached(key).getResource().getMetadata().getUid();
        String firstName = store.cached(key).getResource().getMetadata().getName();
        f.putDesired(TopologyFixture.desiredState(key, Map.of("image", "nginx:1.21", "replicas", 2L)));
        f.observe(key, new String(uid.toCharArray()), 1, SPEC, new String(commandId.toCharArray()));

        ReconcileState st = store.cached(key);
        var meta = st.getResource().getMetadata();
        assertThat(meta.getGeneration()).isEqualTo(2);
        assertThat(meta.getName()).isEqualTo(key.substring(key.lastIndexOf('/') + 1));
        assertThat(st.getObserved().getName()).isSameAs(meta.getName());
        assertThat(st.getObserved().getUid()).isSameAs(meta.getUid());
        assertThat(st.getObserved().getAckCommandId()).isSameAs(st.getLastCorrection().getCommandId());
        assertThat(st.getObserved().getConditions()).isSameAs(List.of());
        assertThat(meta.getName()).as("the first write's instance").isSameAs(firstName);
    }

    @Test
    void shouldGiveAnObservationEqualToTheSpecTheSpecsOwnInstance() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC), "req-1");
        f.advance(BATCH);
        DecodedStateStore store = (DecodedStateStore) (Object) f.driver.getKeyValueStore(StatesyncTopology.STATE_STORE);

        f.observe(KEY, null, 1, Map.of("image", "nginx:1.20", "replicas", 3L), null);
        ReconcileState drifted = store.get(KEY);
        f.observe(KEY, null, 1, SPEC, null);
        ReconcileState converged = store.get(KEY);

        assertThat(drifted.getObserved().getState()).isNotSameAs(drifted.getResource().getSpec());
        assertThat(converged.getObserved().getState()).isSameAs(converged.getResource().getSpec());
    }

    @Test
    void shouldGiveAnEqualObservationTheSpecsInstanceAlsoWhenTheSpecWasDecodedSinceItWasWritten() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC), "req-1");
        f.advance(BATCH);
        DecodedStateStore store = (DecodedStateStore) (Object) f.driver.getKeyValueStore(StatesyncTopology.STATE_STORE);
        // Decoded again from the store, the spec is a new instance that no serializer has written, so no encoding of it is
        // kept (encodings are kept by identity) and the comparison has to walk the trees.
        store.clearCache();

        f.observe(KEY, null, 1, SPEC, null);
        ReconcileState converged = store.get(KEY);

        assertThat(converged.getObserved().getState()).isSameAs(converged.getResource().getSpec());
    }

    @Test
    void shouldNotEmitAcceptedEventForWriteWithoutRequestId() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC));
        f.advance(BATCH);
        assertThat(f.drainResources()).hasSize(1);
        assertThat(f.drainEvents()).extracting(ReconcileEvent::getType).doesNotContain(EventType.Accepted);
    }

    @Test
    void shouldConvergeEveryKeyWhenAnAgentAnswersEachCorrection() {
        int n = 300;
        for (int i = 0; i < n; i++) {
            f.putDesired(TopologyFixture.desiredState("WebApp/default/app-" + i, SPEC));
        }
        f.advance(BATCH);
        List<io.statesync.avro.Correction> corrections = f.drainCorrections();
        assertThat(corrections).hasSize(n);
        for (io.statesync.avro.Correction c : corrections) {
            f.observe(c.getKind() + "/" + c.getNamespace() + "/" + c.getName(), c.getUid(), c.getGeneration(), SPEC, c.getCommandId());
        }
        f.advance(BATCH);
        Map<String, SyncStatus> last = new java.util.HashMap<>();
        f.drainResources().forEach(r -> last.put(r.getMetadata().getName(), r.getStatus().getSyncStatus()));
        assertThat(last).hasSize(n).allSatisfy((name, status) -> assertThat(status).isEqualTo(SyncStatus.Synced));
        assertThat(f.drainCorrections()).isEmpty();
    }

    @Test
    void shouldKeepTheStateOfEveryKeyWhenMoreKeysThanTheCacheHolds() {
        try (TopologyFixture small = new TopologyFixture(stateDir.resolve("small"), Map.of(AppConfig.RECONCILE_COALESCE_ENABLED, true,
            AppConfig.RECONCILE_BATCH_INTERVAL_MS, BATCH.toMillis(), AppConfig.STATE_CACHE_MAX_ENTRIES, 2))) {
            for (int i = 0; i < 5; i++) {
                small.putDesired(TopologyFixture.desiredState("WebApp/default/app-" + i, SPEC));
            }
            small.advance(BATCH);
            assertThat(small.drainCorrections()).hasSize(5);
            for (int i = 0; i < 5; i++) {
                small.observe("WebApp/default/app-" + i, null, 1, SPEC, null);
            }
            small.advance(BATCH);
            assertThat(small.drainResources()).filteredOn(r -> r.getStatus().getSyncStatus() == SyncStatus.Synced).hasSize(5);
        }
    }
}
