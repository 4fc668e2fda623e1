package io.statesync.topology.internal;


import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.Value;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.CompactMap;
import io.statesync.schemas.Values;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReconcileStateSerdeTest {

    private static final String TOPIC = "app-statesync-state-changelog";

    private final TopologySerdes serdes =
        new TopologySerdes(new AppConfig(Map.of(AppConfig.SCHEMA_REGISTRY_URL, "mock://state-" + UUID.randomUUID())));
    private final Serde<ReconcileState> serde = serdes.reconcileState();

    @Test
    void shouldRestoreTheSharedSpecInstanceWhenDecoding() {
        ReconcileState st = stateAfterCorrection(spec("nginx:1.21"));

        ReconcileState back = serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, st));

        assertThat(back).isEqualTo(st);
        assertThat(back.getLastApplied()).isSameAs(back.getResource().getSpec());
        assertThat(back.getLastCorrection().getDesiredSpec()).isSameAs(back.getLastApplied());
        assertThat(back.getLastAppliedIsSpec()).isFalse();
        assertThat(back.getLastCorrectionSpecIsApplied()).isFalse();
    }

    @Test
    void shouldLeaveTheLiveStateAsItWasAfterEncoding() {
        Value spec = spec("nginx:1.21");
        ReconcileState st = stateAfterCorrection(spec);

        serde.serializer().serialize(TOPIC, st);

        assertThat(st.getLastApplied()).isSameAs(spec);
        assertThat(st.getLastCorrection().getDesiredSpec()).isSameAs(spec);
        assertThat(st.getLastAppliedIsSpec()).isFalse();
        assertThat(st.getLastCorrectionSpecIsApplied()).isFalse();
    }

    @Test
    void shouldWriteTheSharedSpecOnlyOnce() {
        ReconcileState shared = stateAfterCorrection(spec("nginx:1.21"));
        ReconcileState copies = stateAfterCorrection(spec("nginx:1.21"));
        copies.setLastApplied(spec("nginx:1.21"));
        copies.getLastCorrection().setDesiredSpec(spec("nginx:1.21"));

        int sharedBytes = serde.serializer().serialize(TOPIC, shared).length;
        int copiesBytes = serde.serializer().serialize(TOPIC, copies).length;

        assertThat(sharedBytes).isLessThan(copiesBytes);
        assertThat(serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, copies))).isEqualTo(copies);
    }

    @Test
    void shouldKeepADifferentLastAppliedSpec() {
        ReconcileState st = stateAfterCorrection(spec("nginx:1.21"));
        Value older = spec("nginx:1.20");
        st.setLastApplied(older);
        st.getLastCorrection().setDesiredSpec(older);

        ReconcileState back = serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, st));

        assertThat(back.getLastApplied()).isEqualTo(older).isNotEqualTo(back.getResource().getSpec());
        assertThat(back.getLastCorrection().getDesiredSpec()).isEqualTo(older);
    }

    @Test
    void shouldWriteAnObservedStateThatIsTheSpecsInstanceOnlyOnceAndShareItWhenDecoding() {
        ReconcileState converged = stateAfterCorrection(spec("nginx:1.21"));
        converged.setObserved(observed(converged.getResource().getSpec()));
        ReconcileState drifted = stateAfterCorrection(spec("nginx:1.21"));
        drifted.setObserved(observed(spec("nginx:1.20")));

        byte[] convergedBytes = serde.serializer().serialize(TOPIC, converged);
        byte[] driftedBytes = serde.serializer().serialize(TOPIC, drifted);
        ReconcileState back = serde.deserializer().deserialize(TOPIC, convergedBytes);
        ReconcileState driftedBack = serde.deserializer().deserialize(TOPIC, driftedBytes);

        assertThat(convergedBytes.length).isLessThan(driftedBytes.length);
        assertThat(back).isEqualTo(converged);
        assertThat(back.getObserved().getState()).isSameAs(back.getResource().getSpec());
        assertThat(back.getObservedStateIsSpec()).isFalse();
        assertThat(converged.getObserved().getState()).as("the live state is left as it was")
            .isSameAs(converged.getResource().getSpec());
        assertThat(converged.getObservedStateIsSpec()).isFalse();
        assertThat(driftedBack).isEqualTo(drifted);
        assertThat(driftedBack.getObserved().getState()).isEqualTo(spec("nginx:1.20"));
    }

    @Test
    void shouldWriteAnEqualObservedStateOfItsOwnInFullWithoutComparingTheTrees() {
        ReconcileState shared = stateAfterCorrection(spec("nginx:1.21"));
        shared.setObserved(observed(shared.getResource().getSpec()));
        ReconcileState equal = stateAfterCorrection(spec("nginx:1.21"));
        Value own = spec("nginx:1.21");
        equal.setObserved(observed(own));

        byte[] sharedBytes = serde.serializer().serialize(TOPIC, shared);
        byte[] equalBytes = serde.serializer().serialize(TOPIC, equal);
        ReconcileState back = serde.deserializer().deserialize(TOPIC, equalBytes);

        assertThat(equalBytes.length).isGreaterThan(sharedBytes.length);
        assertThat(back).isEqualTo(equal);
        assertThat(equal.getObserved().getState()).isSameAs(own);
    }

    @Test
    void shouldKeepAnAbsentObservedStateAbsent() {
        ReconcileState st = stateAfterCorrection(spec("nginx:1.21"));
        st.setObserved(observed(null));

        ReconcileState back = serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, st));

        assertThat(back.getObserved().getState()).isNull();
        assertThat(back).isEqualTo(st);
    }

    @Test
    void shouldDecodeTheStatesTreesIntoCompactMaps() {
        ReconcileState st = stateAfterCorrection(spec("nginx:1.21"));
        st.setLastApplied(spec("nginx:1.20"));
        st.setObserved(observed(spec("nginx:1.19")));

        ReconcileState back = serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, st));

        assertThat(back).isEqualTo(st);
        assertThat(back.getResource().getSpec().getValue()).isInstanceOf(CompactMap.class);
        assertThat(back.getLastApplied().getValue()).isInstanceOf(CompactMap.class);
        assertThat(back.getObserved().getState().getValue()).isInstanceOf(CompactMap.class);
        Value env = (Value) ((Map<?, ?>) back.getResource().getSpec().getValue()).get("env");
        assertThat(env.getValue()).isInstanceOf(CompactMap.class);
    }

    private static ObservedState observed(Value state) {
        return ObservedState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop").setUid("u-1")
            .setObservedGeneration(2).setState(state).setObservedAt(Instant.ofEpochMilli(3000)).setReporter("agent-1")
            .setAckCommandId("c-1").build();
    }

    private static Value spec(String image) {
        return Values.fromJava(Map.of("image", image, "replicas", 3L, "env", Map.of("ENV", "production")));
    }

    private static ReconcileState stateAfterCorrection(Value spec) {
        ObjectMeta meta = ObjectMeta.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setUid("u-1").setResourceVersion("7").setGeneration(2).setCreationTimestamp(Instant.ofEpochMilli(1000)).build();
        Resource resource = Resource.newBuilder().setMetadata(meta).setSpec(spec)
            .setStatus(AvroMapping.initialStatus(Instant.ofEpochMilli(1000))).build();
        Correction correction = Correction.newBuilder().setCommandId("c-1").setKind("WebApp").setNamespace("default")
            .setName("shop").setUid("u-1").setAction(Action.UPDATE).setReason(Reason.SpecChanged).setGeneration(2)
            .setAttempt(1).setPatch(List.of()).setDesiredSpec(spec).setIssuedAt(Instant.ofEpochMilli(2000))
            .setDeadline(Instant.ofEpochMilli(32000)).build();
        return ReconcileState.newBuilder().setResource(resource).setLastApplied(spec).setLastCorrection(correction).build();
    }
}
