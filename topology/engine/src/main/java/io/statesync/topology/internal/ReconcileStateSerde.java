package io.statesync.topology.internal;

import java.util.Map;

import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import io.statesync.avro.Value;
import io.statesync.avro.store.ReconcileState;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The state store's serde. After a correction the state holds the same spec three times over (the Resource's spec,
 * the last-applied spec of the three-way merge, and the last correction's desired spec), and encoding the state at
 * every commit is the biggest single cost of the topology. Where those are one instance, the record carries the spec
 * once and two flags, and decoding puts the shared instance back, so a decoded state looks exactly as it was written.
 * Once converged, the observed state equals the spec too (by value: it came from an agent); the engine then shares the
 * spec's instance as the observation arrives, and the state writes it as a third flag, which decoding turns back into
 * the shared instance. The encoding checks identity only: walking both trees at every commit would repeat the engine's
 * comparison whenever they differ, and an equal state that is not the spec's instance (a spec changed back to what was
 * observed) is only written less compactly until the next observation.
 *
 * <p>Otherwise encoding leaves the live state as it was: the shared fields are cleared only while the record is
 * written, on the stream thread that owns the state. Values are never changed in place, so sharing one is safe.
 */
public final class ReconcileStateSerde implements Serde<ReconcileState> {

    /**
     * The length of the record this thread last encoded or decoded: the decoded-state cache weighs its entries by it,
     * and the typed store it sits on hands it objects, never their bytes. Set and read on the stream thread, within
     * the one store call that ran the serde.
     */
    private static final ThreadLocal<int[]> LAST_LENGTH = ThreadLocal.withInitial(() -> new int[1]);

    private final Serde<ReconcileState> avro;

    public ReconcileStateSerde(Serde<ReconcileState> avro) {
        this.avro = avro;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        avro.configure(configs, isKey);
    }

    @Override
    public Serializer<ReconcileState> serializer() {
        Serializer<ReconcileState> inner = avro.serializer();
        return (topic, st) -> remember(st == null ? inner.serialize(topic, null) : encode(inner, topic, st));
    }

    @Override
    public Deserializer<ReconcileState> deserializer() {
        Deserializer<ReconcileState> inner = avro.deserializer();
        return (topic, bytes) -> restore(inner.deserialize(topic, remember(bytes)));
    }

    /** The length of the record the calling thread's last encoding or decoding of a state saw (0 for none). */
    static int lastLength() {
        return LAST_LENGTH.get()[0];
    }

    private static byte[] remember(byte[] bytes) {
        LAST_LENGTH.get()[0] = bytes == null ? 0 : bytes.length;
        return bytes;
    }

    @Override
    public void close() {
        avro.close();
    }

    private static byte[] encode(Serializer<ReconcileState> inner, String topic, ReconcileState st) {
        ObservedState observed = st.getObserved();
        Resource resource = st.getResource();
        if (observed == null || resource == null || observed.getState() == null
            || observed.getState() != resource.getSpec()) {
            return encodeApplied(inner, topic, st);
        }
        observed.setState(null);
        st.setObservedStateIsSpec(true);
        try {
            return encodeApplied(inner, topic, st);
        } finally {
            observed.setState(resource.getSpec());
            st.setObservedStateIsSpec(false);
        }
    }

    private static byte[] encodeApplied(Serializer<ReconcileState> inner, String topic, ReconcileState st) {
        Resource resource = st.getResource();
        Value applied = st.getLastApplied();
        Correction correction = st.getLastCorrection();
        boolean appliedIsSpec = applied != null && resource != null && applied == resource.getSpec();
        boolean correctionIsApplied = applied != null && correction != null && correction.getDesiredSpec() == applied;
        if (appliedIsSpec) {
            st.setLastApplied(null);
            st.setLastAppliedIsSpec(true);
        }
        if (correctionIsApplied) {
            correction.setDesiredSpec(null);
            st.setLastCorrectionSpecIsApplied(true);
        }
        try {
            return inner.serialize(topic, st);
        } finally {
            st.setLastApplied(applied);
            st.setLastAppliedIsSpec(false);
            if (correctionIsApplied) {
                correction.setDesiredSpec(applied);
            }
            st.setLastCorrectionSpecIsApplied(false);
        }
    }

    static ReconcileState restore(ReconcileState st) {
        if (st == null) {
            return null;
        }
        compactTrees(st);
        if (st.getLastAppliedIsSpec() && st.getResource() != null) {
            st.setLastApplied(st.getResource().getSpec());
        }
        if (st.getLastCorrectionSpecIsApplied() && st.getLastCorrection() != null) {
            st.getLastCorrection().setDesiredSpec(st.getLastApplied());
        }
        if (st.getObservedStateIsSpec() && st.getObserved() != null && st.getResource() != null) {
            st.getObserved().setState(st.getResource().getSpec());
        }
        st.setObservedStateIsSpec(false);
        st.setLastAppliedIsSpec(false);
        st.setLastCorrectionSpecIsApplied(false);
        return st;
    }

    /** The decoded state lives in the cache and is iterated at every reconcile: see {@link CompactValues}. */
    private static void compactTrees(ReconcileState st) {
        if (st.getResource() != null) {
            CompactValues.compact(st.getResource().getSpec());
        }
        if (st.getObserved() != null) {
            CompactValues.compact(st.getObserved().getState());
            CompactValues.compact(st.getObserved().getStatus());
        }
        CompactValues.compact(st.getLastApplied());
        if (st.getLastCorrection() != null) {
            CompactValues.compact(st.getLastCorrection().getDesiredSpec());
        }
    }
}
