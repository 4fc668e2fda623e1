package io.statesync.topology.internal;

import java.util.Map;
import java.util.Properties;

import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.topology.TopologyFixture;
import io.statesync.topology.TopologySerdes;
import io.statesync.topology.WriteAdmission;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The decoded-state cache's byte budget, over an in-memory store with the real state serde. */
class DecodedStateStoreBudgetTest {

    private static DecodedStateStore store(int maxEntries, long maxBytes) {
        MockProcessorContext<Object, Object> pc = new MockProcessorContext<>(new Properties(), new TaskId(0, 0), null);
        DecodedStateStore store = new DecodedStateStoreBuilder(Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore("state"), Serdes.String(), new TopologySerdes(new AppConfig(Map.of(
                AppConfig.SCHEMA_REGISTRY_URL, "mock://decoded-state-budget"))).reconcileState()), maxEntries, maxBytes)
            .withLoggingDisabled().build();
        store.init(pc.getStateStoreContext(), store);
        return store;
    }

    /** A state whose spec holds {@code padding} characters, so that its encoding is at least that long. */
    private static ReconcileState state(String key, int padding) {
        WriteAdmission.Accepted a = (WriteAdmission.Accepted) WriteAdmission.decide(null,
            TopologyFixture.desiredState(key, Map.of("pad", "x".repeat(padding))), ReconcilePolicy.defaults());
        ReconcileState st = ReconcileState.newBuilder().build();
        st.setResource(WriteAdmission.admitted(null, a, 0));
        return st;
    }

    @Test
    void shouldWeighEachStateByItsEncodingOnceACommitHasWrittenItBack() {
        DecodedStateStore store = store(1_000, 1L << 30);
        store.write("WebApp/ns/a", state("WebApp/ns/a", 5_000));
        assertThat(store.cachedBytes()).as("not encoded yet").isZero();
        store.flushCache();
        assertThat(store.cachedBytes()).isGreaterThan(5_000).isLessThan(6_000);
    }

    @Test
    void shouldDropTheLeastRecentlyUsedStatesPastTheByteBudgetAndKeepTheirChanges() {
        DecodedStateStore store = store(1_000, 12_000);
        for (String k : new String[] {"WebApp/ns/a", "WebApp/ns/b", "WebApp/ns/c"}) {
            store.write(k, state(k, 5_000));
        }
        assertThat(store.cached("WebApp/ns/a")).as("within the entry bound, new states weigh nothing yet").isNotNull();
        store.flushCache();

        assertThat(store.cached("WebApp/ns/a")).as("the least recently used leaves first").isNull();
        assertThat(store.cached("WebApp/ns/c")).isNotNull();
        assertThat(store.cachedBytes()).isLessThanOrEqualTo(12_000);
        assertThat(store.read("WebApp/ns/a").getResource().getSpec()).as("written back before it left").isNotNull();
        assertThat(store.cached("WebApp/ns/b")).as("reading a back made b the oldest, past the budget").isNull();
    }

    @Test
    void shouldWriteThroughAChangedStateThatLeavesBeforeTheCommit() {
        DecodedStateStore store = store(1_000, 7_500);
        store.write("WebApp/ns/a", state("WebApp/ns/a", 7_000));
        store.write("WebApp/ns/b", state("WebApp/ns/b", 500));
        store.flushCache();
        assertThat(store.cached("WebApp/ns/a")).isNull();
        ReconcileState b = store.read("WebApp/ns/b");
        b.getResource().getMetadata().setResourceVersion("42");
        store.write("WebApp/ns/b", b);

        store.read("WebApp/ns/a");

        assertThat(store.cachedBytes()).as("a weighs what it decoded from").isGreaterThan(7_000).isLessThanOrEqualTo(7_500);
        assertThat(store.cached("WebApp/ns/b")).as("the changed state left for a, past the budget").isNull();
        assertThat(store.get("WebApp/ns/b").getResource().getMetadata().getResourceVersion())
            .as("in the inner store before any commit").isEqualTo("42");
    }
}
