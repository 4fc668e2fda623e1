package io.statesync.bench.serde;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.registry.MockSchemaRegistry;
import io.statesync.serde.AvroSerdes;
import io.statesync.topology.TopologySerdes;
import io.statesync.topology.store.ReconcileStateStore;
import org.apache.kafka.common.serialization.Serializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the topology pays to publish a Resource and then write the state that holds it, as after a converged
 * observation: the resources sink's encoding, then the state's. The contender is statesync's wiring, where the state
 * copies the Resource's bytes the sink has just written; the baseline encodes the state on its own.
 * Both write the same bytes (the unit tests compare them).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class StateWriteBenchmark {

    private static final String RESOURCES = "statesync.resources";
    private static final String CHANGELOG = "statesync-app-statesync-state-changelog";

    private final String scope = "state-write-" + UUID.randomUUID();
    private ReconcileState state;
    private Serializer<Resource> sink;
    private Serializer<ReconcileState> stateSerializer;
    private Serializer<Resource> plainSink;
    private Serializer<ReconcileState> plainStateSerializer;

    @Setup
    public void setUp() {
        state = convergedState(SerdeBenchmark.typicalResource());
        Map<String, Object> config = Map.of(AppConfig.SCHEMA_REGISTRY_URL, "mock://" + scope);
        TopologySerdes serdes = new TopologySerdes(new AppConfig(config));
        sink = serdes.resourceSink();
        stateSerializer = serdes.reconcileState().serializer();
        plainSink = serdes.resource().serializer();
        plainStateSerializer = ReconcileStateStore.serde(AvroSerdes.specific(ReconcileState.class, config, false)).serializer();
        sink.serialize(RESOURCES, state.getResource());
        if (!java.util.Arrays.equals(stateSerializer.serialize(CHANGELOG, state), plainStateSerializer.serialize(CHANGELOG, state))) {
            throw new IllegalStateException("the two wirings write different state bytes");
        }
    }

    @TearDown
    public void tearDown() {
        MockSchemaRegistry.dropScope(scope);
    }

    @Benchmark
    public byte[] publishThenWriteState() {
        sink.serialize(RESOURCES, state.getResource());
        return stateSerializer.serialize(CHANGELOG, state);
    }

    @Benchmark
    public byte[] baselinePublishThenWriteState() {
        plainSink.serialize(RESOURCES, state.getResource());
        return plainStateSerializer.serialize(CHANGELOG, state);
    }

    @Benchmark
    @Group("publishSideBySide")
    @GroupThreads(1)
    public byte[] reusing() {
        return publishThenWriteState();
    }

    @Benchmark
    @Group("publishSideBySide")
    @GroupThreads(1)
    public byte[] encodingTwice() {
        return baselinePublishThenWriteState();
    }

    /** Converged: observed equals the spec, and the last correction's spec is the last applied one. */
    private static ReconcileState convergedState(Resource r) {
        var m = r.getMetadata();
        Instant at = m.getCreationTimestamp();
        Correction c = Correction.newBuilder().setCommandId("cmd-1").setKind(m.getKind()).setNamespace(m.getNamespace())
            .setName(m.getName()).setUid(m.getUid()).setAction(Action.UPDATE).setReason(Reason.SpecChanged)
            .setGeneration(m.getGeneration()).setAttempt(1).setPatch(List.of()).setDesiredSpec(r.getSpec())
            .setIssuedAt(at).setDeadline(at.plusSeconds(30)).build();
        ObservedState o = ObservedState.newBuilder().setKind(m.getKind()).setNamespace(m.getNamespace()).setName(m.getName())
            .setUid(m.getUid()).setObservedGeneration(m.getGeneration()).setState(r.getSpec()).setObservedAt(at)
            .setReporter("agent-1").setAckCommandId("cmd-1").build();
        return ReconcileState.newBuilder().setResource(r).setObserved(o).setLastApplied(r.getSpec()).setLastCorrection(c)
            .build();
    }
}
