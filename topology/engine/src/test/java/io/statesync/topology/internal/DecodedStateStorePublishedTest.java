package io.statesync.topology.internal;

import java.time.Instant;
import java.util.Map;
import java.util.Properties;

import io.statesync.avro.Resource;
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

/**
 * The commit writes a state's Resource from the bytes it was published with only while they still encode it. Over an
 * in-memory store with the real serde, whose encoders assert (assertions are on in tests) that copied bytes are the
 * Resource's encoding: a stale copy fails the write-back.
 */
class DecodedStateStorePublishedTest {

    private static final String KEY = "WebApp/ns/a";
    private final TopologySerdes serdes = new TopologySerdes(new AppConfig(Map.of(
        AppConfig.SCHEMA_REGISTRY_URL, "mock://decoded-state-published")));

    private DecodedStateStore store() {
        MockProcessorContext<Object, Object> pc = new MockProcessorContext<>(new Properties(), new TaskId(0, 0), null);
        DecodedStateStore store = new DecodedStateStoreBuilder(Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore("state"), Serdes.String(), serdes.reconcileState()), 1_000, 1L << 30)
            .withLoggingDisabled().build();
        store.init(pc.getStateStoreContext(), store);
        return store;
    }

    private static ReconcileState state() {
        WriteAdmission.Accepted a = (WriteAdmission.Accepted) WriteAdmission.decide(null,
            TopologyFixture.desiredState(KEY, Map.of("replicas", 2L)), ReconcilePolicy.defaults());
        ReconcileState st = ReconcileState.newBuilder().build();
        st.setResource(WriteAdmission.admitted(null, a, 0));
        return st;
    }

    private void published(DecodedStateStore store, ReconcileState st) {
        byte[] wire = serdes.resource().serializer().serialize("resources", st.getResource());
        store.write(KEY, st);
        store.published(KEY, st.getResource(), wire);
    }

    @Test
    void shouldWriteTheStateAsPublishedWhenTheResourceDidNotChangeSince() {
        DecodedStateStore store = store();
        ReconcileState st = state();
        published(store, st);

        store.flushCache();

        Resource stored = store.get(KEY).getResource();
        assertThat(stored).isEqualTo(st.getResource());
    }

    @Test
    void shouldEncodeTheResourceAfreshWhenItChangedAfterItWasPublished() {
        DecodedStateStore store = store();
        ReconcileState st = state();
        published(store, st);
        // A heartbeat after the publish, in the same commit interval: the state keeps it, no Resource is published.
        st.getResource().getStatus().setLastObservedAt(Instant.ofEpochMilli(42));

        store.flushCache();

        assertThat(store.get(KEY).getResource().getStatus().getLastObservedAt()).isEqualTo(Instant.ofEpochMilli(42));
    }

    @Test
    void shouldForgetThePublishedBytesAtTheCommit() {
        DecodedStateStore store = store();
        ReconcileState st = state();
        published(store, st);
        store.flushCache();
        st.getResource().getMetadata().setResourceVersion("7");
        store.write(KEY, st);

        store.flushCache();

        assertThat(store.get(KEY).getResource().getMetadata().getResourceVersion()).isEqualTo("7");
    }
}
