package io.statesync.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.avro.Correction;
import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.TopologyNames;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologyFixture;
import io.statesync.topology.TopologySerdes;
import io.statesync.topology.WriteAdmission;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** The task's one reconciler and its registry, on a mock processor context with in-memory stores: no broker, no driver. */
class TaskReconcilerTest {

    private static final long NOW = 1_767_225_600_000L;

    private final TopologyContext ctx = context(Map.of(AppConfig.CORRECTIONS_RATE_PER_KIND, 1.0,
        AppConfig.CORRECTIONS_BURST_PER_KIND, 1));

    private static TopologyContext context(Map<String, Object> overrides) {
        Map<String, Object> props = new java.util.HashMap<>(overrides);
        props.put(AppConfig.SCHEMA_REGISTRY_URL, "mock://task-reconciler-" + UUID.randomUUID());
        AppConfig config = new AppConfig(props);
        return new TopologyContext(config, new TopicNames(config.topicPrefix()), new TopologySerdes(config),
            new ReconcileMetrics(new SimpleMeterRegistry()), Clock.systemUTC());
    }

    private static MockProcessorContext<Object, Object> task(int partition) {
        MockProcessorContext<Object, Object> pc = new MockProcessorContext<>(new java.util.Properties(),
            new TaskId(0, partition), null);
        add(pc, new DecodedStateStoreBuilder(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(
            TopologyNames.STATE_STORE), Serdes.String(), new TopologySerdes(new AppConfig(Map.of(
            AppConfig.SCHEMA_REGISTRY_URL, "mock://task-reconciler-store"))).reconcileState()), 100, 1L << 30));
        add(pc, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TopologyNames.TIMER_STORE), Serdes.String(),
            Serdes.ByteArray()));
        add(pc, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TopologyNames.REVISION_STORE), Serdes.String(),
            Serdes.Long()));
        add(pc, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TopologyNames.DEPENDENTS_STORE), Serdes.String(),
            Serdes.ByteArray()));
        add(pc, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TopologyNames.KINDS_STORE), Serdes.String(),
            Serdes.ByteArray()));
        return pc;
    }

    private static void add(MockProcessorContext<Object, Object> pc, StoreBuilder<? extends StateStore> builder) {
        StateStore store = builder.withLoggingDisabled().build();
        store.init(pc.getStateStoreContext(), store);
        pc.addStateStore(store);
    }

    /** Stores a freshly admitted WebApp under {@code key}, as admission leaves it before its first reconcile. */
    private static void admit(TaskReconciler r, String key) {
        WriteAdmission.Accepted a = (WriteAdmission.Accepted) WriteAdmission.decide(null,
            TopologyFixture.desiredState(key, Map.of("replicas", 1L)), ReconcilePolicy.defaults());
        ReconcileState st = ReconcileState.newBuilder().build();
        st.setResource(WriteAdmission.admitted(null, a, NOW));
        r.keep(key, st);
    }

    private static List<Object> forwardedTo(MockProcessorContext<Object, Object> pc, String sink) {
        return pc.forwarded().stream().filter(f -> f.childName().filter(sink::equals).isPresent())
            .map(f -> f.record().value()).map(Object.class::cast).toList();
    }

    @Test
    void shouldPublishTheResourceAndIssueTheCorrectionOfAnAdmittedKey() {
        MockProcessorContext<Object, Object> pc = task(0);
        TaskReconciler r = TaskReconciler.create(ctx, pc);
        admit(r, "WebApp/default/a");

        Resource published = r.reconcile("WebApp/default/a", TaskReconciler.Cause.of(TaskReconciler.Why.ADMITTED, NOW));

        assertThat(published).isNotNull();
        assertThat(forwardedTo(pc, TopologyNames.RESOURCES_SINK)).as("forwarded as the bytes the sink writes")
            .singleElement().satisfies(wire -> assertThat(ctx.serdes().resource().deserializer()
                .deserialize(ctx.topics().resources(), (byte[]) wire)).isEqualTo(published));
        assertThat(forwardedTo(pc, TopologyNames.CORRECTIONS_SINK)).singleElement()
            .satisfies(c -> assertThat(((Correction) c).getName()).isEqualTo("a"));
    }

    @Test
    void shouldPaceEveryCauseOfOneTaskWithOneBucketPerKind() {
        MockProcessorContext<Object, Object> pc = task(0);
        TaskReconciler r = TaskReconciler.create(ctx, pc);
        admit(r, "WebApp/default/a");
        admit(r, "WebApp/default/b");
        admit(r, "WebApp/default/c");

        r.reconcile("WebApp/default/a", TaskReconciler.Cause.of(TaskReconciler.Why.ADMITTED, NOW));
        r.reconcile("WebApp/default/b", TaskReconciler.Cause.of(TaskReconciler.Why.OBSERVED, NOW));
        r.reconcile("WebApp/default/c", TaskReconciler.Cause.of(TaskReconciler.Why.DEPENDENTS, NOW));

        assertThat(forwardedTo(pc, TopologyNames.CORRECTIONS_SINK)).as("a burst of one").hasSize(1);
        assertThat(r.state("WebApp/default/c").getResource().getStatus().getConditions())
            .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("RateLimited"));
    }

    @Test
    void shouldReconcileNothingForAKeyWithoutState() {
        MockProcessorContext<Object, Object> pc = task(0);
        TaskReconciler r = TaskReconciler.create(ctx, pc);

        assertThat(r.reconcile("WebApp/default/none", TaskReconciler.Cause.of(TaskReconciler.Why.TIMER, NOW))).isNull();
        assertThat(pc.forwarded()).isEmpty();
    }

    @Test
    void shouldHandEveryProcessorOfATaskTheSameReconcilerAndMakeItOnce() {
        TaskReconcilers registry = ctx.reconcilers();
        MockProcessorContext<Object, Object> pc = task(0);
        AtomicInteger made = new AtomicInteger();

        TaskReconciler admission = registry.acquire(pc, p -> countMade(made, p));
        TaskReconciler collect = registry.acquire(pc, p -> countMade(made, p));
        TaskReconciler otherTask = registry.acquire(task(1), p -> countMade(made, p));

        assertThat(collect).isSameAs(admission);
        assertThat(otherTask).isNotSameAs(admission);
        assertThat(made).hasValue(2);
    }

    @Test
    void shouldDropATasksReconcilerWithItsLastProcessorAndMakeANewOneForARestartedTask() {
        TaskReconcilers registry = ctx.reconcilers();
        MockProcessorContext<Object, Object> pc = task(0);
        TaskReconciler first = registry.acquire(pc, p -> TaskReconciler.create(ctx, p));
        registry.acquire(pc, p -> TaskReconciler.create(ctx, p));

        registry.release(pc);
        assertThat(registry.size()).as("one processor still holds it").isEqualTo(1);
        registry.release(pc);
        assertThat(registry.size()).isZero();

        registry.acquire(pc, p -> TaskReconciler.create(ctx, p));
        TaskReconciler restarted = registry.acquire(task(0), p -> TaskReconciler.create(ctx, p));
        assertThat(restarted).as("a new context of the same task, whose old processors never closed").isNotSameAs(first);
    }

    /** An agent's report of the spec {@code admit} wrote, acknowledging {@code ack}, at {@code at}. */
    private static void observeInSync(TaskReconciler r, String key, Correction ack, long at) {
        ReconcileState st = r.state(key);
        st.setObserved(io.statesync.avro.ObservedState.newBuilder().setKind("WebApp").setNamespace("default")
            .setName(key.substring(key.lastIndexOf('/') + 1)).setUid(ack.getUid()).setObservedGeneration(1)
            .setState(TopologyFixture.spec(Map.of("replicas", 1L))).setObservedAt(java.time.Instant.ofEpochMilli(at))
            .setReporter("test").setAckCommandId(ack.getCommandId()).build());
    }

    @Test
    void shouldOnlyMoveTheHeartbeatOfAStatusThatAReportDoesNotChange() {
        MockProcessorContext<Object, Object> pc = task(0);
        TaskReconciler r = TaskReconciler.create(ctx, pc);
        String key = "WebApp/default/a";
        admit(r, key);
        r.reconcile(key, TaskReconciler.Cause.of(TaskReconciler.Why.ADMITTED, NOW));
        Correction issued = (Correction) forwardedTo(pc, TopologyNames.CORRECTIONS_SINK).get(0);
        observeInSync(r, key, issued, NOW + 10);
        r.reconcile(key, TaskReconciler.Cause.of(TaskReconciler.Why.OBSERVED, NOW + 10));
        var synced = r.state(key).getResource().getStatus();
        pc.resetForwards();

        observeInSync(r, key, issued, NOW + 20);
        Resource published = r.reconcile(key, TaskReconciler.Cause.of(TaskReconciler.Why.OBSERVED, NOW + 20));

        assertThat(published).isNull();
        assertThat(pc.forwarded()).as("no Resource, event or index record").isEmpty();
        var now = r.state(key).getResource().getStatus();
        assertThat(now).as("the stored status, not one built afresh").isSameAs(synced);
        assertThat(now.getSyncStatus()).isEqualTo(io.statesync.avro.SyncStatus.Synced);
        assertThat(now.getLastObservedAt()).isEqualTo(java.time.Instant.ofEpochMilli(NOW + 20));
    }

    private TaskReconciler countMade(AtomicInteger made, org.apache.kafka.streams.processor.api.ProcessorContext<Object, Object> pc) {
        made.incrementAndGet();
        return TaskReconciler.create(ctx, pc);
    }
}
