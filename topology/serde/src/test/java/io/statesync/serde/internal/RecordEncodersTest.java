package io.statesync.serde.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.statesync.avro.Action;
import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.DiffKind;
import io.statesync.avro.FieldDiff;
import io.statesync.avro.FieldOp;
import io.statesync.avro.FieldOpType;
import io.statesync.avro.ManagedFieldsEntry;
import io.statesync.avro.ManagedFieldsOperation;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ApplyError;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.avro.store.ReconcileState;
import io.statesync.serde.PreEncodedRecords;
import io.statesync.serde.WireFormat;
import io.statesync.testing.RandomValues;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordEncodersTest {

    @Test
    void shouldBeWrittenForTheCurrentSchemas() {
        // When this fails a schema changed: make RecordEncoders write the new fields, then update the constant.
        assertThat(SchemaNormalization.parsingFingerprint64(Resource.getClassSchema())).isEqualTo(RecordEncoders.RESOURCE_FINGERPRINT);
        assertThat(SchemaNormalization.parsingFingerprint64(Correction.getClassSchema())).isEqualTo(RecordEncoders.CORRECTION_FINGERPRINT);
        assertThat(SchemaNormalization.parsingFingerprint64(ObservedState.getClassSchema()))
            .isEqualTo(RecordEncoders.OBSERVED_STATE_FINGERPRINT);
        assertThat(SchemaNormalization.parsingFingerprint64(ReconcileState.getClassSchema()))
            .isEqualTo(RecordEncoders.RECONCILE_STATE_FINGERPRINT);
        assertThat(RecordEncoders.RESOURCE.accepts(Resource.getClassSchema())).isTrue();
        assertThat(RecordEncoders.RESOURCE.accepts(ObjectMeta.getClassSchema())).isFalse();
    }

    @Test
    void shouldAcceptTheEqualSchemaOfANestedRecord() {
        Schema nested = ReconcileState.getClassSchema().getField("observed").schema().getTypes().get(1);
        assertThat(nested).isNotSameAs(ObservedState.getClassSchema());

        assertThat(RecordEncoders.OBSERVED_STATE.accepts(nested)).isTrue();
        assertThat(RecordEncoders.OBSERVED_STATE.accepts(nested)).as("remembered").isTrue();
        assertThat(RecordEncoders.CORRECTION.accepts(nested)).isFalse();
    }

    @Test
    void shouldWriteTheBytesAvroWritesForRandomCorrectionsAndObservations() throws IOException {
        SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < 300; i++) {
            Correction c = randomCorrection(random);
            assertThat(ours(c)).as("correction %d: %s", i, c).isEqualTo(avros(c));
            ObservedState o = randomObservation(random);
            assertThat(ours(o)).as("observation %d: %s", i, o).isEqualTo(avros(o));
        }
    }

    @Test
    void shouldWriteTheBytesAvroWritesForRandomStatesHoldingThem() throws IOException {
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 300; i++) {
            ReconcileState st = randomState(random);
            assertThat(ours(st)).as("state %d: %s", i, st).isEqualTo(avros(st));
        }
    }

    @Test
    void shouldWriteTheBytesAvroWritesForRandomResources() throws IOException {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 500; i++) {
            Resource r = randomResource(random);
            assertThat(written(new ValueAwareDatumWriter<>(Resource.getClassSchema(),
                ClassResolvedUnionData.forClass(Resource.class)), r)).as("resource %d: %s", i, r)
                .isEqualTo(written(new SpecificDatumWriter<>(Resource.class), r));
        }
    }

    @Test
    void shouldWriteTheBytesAvroWritesForDecodedResources() throws IOException {
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 50; i++) {
            byte[] bytes = written(new SpecificDatumWriter<>(Resource.class), randomResource(random));
            Resource decoded = new SpecificDatumReader<>(Resource.class).read(null, DecoderFactory.get().binaryDecoder(bytes, null));

            // Not always the bytes read: a decoded map iterates in its own order, and Avro writes it in that order too.
            assertThat(written(new ValueAwareDatumWriter<>(Resource.getClassSchema(),
                ClassResolvedUnionData.forClass(Resource.class)), decoded))
                .isEqualTo(written(new SpecificDatumWriter<>(Resource.class), decoded));
        }
    }

    @Test
    void shouldCopyTheLentBytesOfTheStatesResourceAndWriteWhatAvroWrites() throws IOException {
        SplittableRandom random = new SplittableRandom(23);
        ReconcileState st = randomState(random);
        st.setResource(randomResource(random));
        byte[] body = written(new SpecificDatumWriter<>(Resource.class), st.getResource());
        byte[] wire = new byte[WireFormat.HEADER_SIZE + body.length];
        System.arraycopy(body, 0, wire, WireFormat.HEADER_SIZE, body.length);
        Resource other = randomResource(random);

        PreEncodedRecords.lend(st.getResource(), wire);
        try {
            assertThat(PreEncodedRecords.wireBytesOf(st.getResource())).isSameAs(wire);
            assertThat(PreEncodedRecords.wireBytesOf(other)).as("lent for one instance only").isNull();
            assertThat(ours(st)).isEqualTo(avros(st));
        } finally {
            PreEncodedRecords.clear();
        }
        assertThat(PreEncodedRecords.wireBytesOf(st.getResource())).isNull();
    }

    @Test
    void shouldRefuseLentBytesThatAreNotTheResourcesEncodingWhileAssertionsAreOn() {
        SplittableRandom random = new SplittableRandom(29);
        ReconcileState st = randomState(random);
        st.setResource(randomResource(random));
        byte[] stale = new byte[WireFormat.HEADER_SIZE + 3];

        PreEncodedRecords.lend(st.getResource(), stale);
        try {
            assertThatThrownBy(() -> ours(st)).isInstanceOf(AssertionError.class).hasMessageContaining("changed");
        } finally {
            PreEncodedRecords.clear();
        }
    }

    @Test
    void shouldFailWhereAvroFailsOnAMissingRequiredField() {
        Resource r = randomResource(new SplittableRandom(9));
        r.getStatus().setSyncStatus(null);

        assertThatThrownBy(() -> written(new ValueAwareDatumWriter<>(Resource.getClassSchema(),
            ClassResolvedUnionData.forClass(Resource.class)), r)).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> written(new SpecificDatumWriter<>(Resource.class), r)).isInstanceOf(RuntimeException.class);
    }

    /** Every field set or left out at random: optional fields null or not, lists and maps empty or not. */
    static Resource randomResource(SplittableRandom random) {
        ObjectMeta meta = ObjectMeta.newBuilder().setKind("WebApp").setNamespace("ns-" + random.nextInt(5))
            .setName("app-" + random.nextInt(1_000)).setUid("uid-" + random.nextLong()).setResourceVersion(Long.toString(random.nextInt(1 << 20)))
            .setGeneration(random.nextLong(1, 1L << 40)).setCreationTimestamp(time(random))
            .setDeletionTimestamp(random.nextBoolean() ? null : time(random))
            .setLabels(texts(random, "l")).setAnnotations(texts(random, "a"))
            .setFinalizers(random.nextBoolean() ? List.of() : List.of("statesync.io/cleanup", "f-" + random.nextInt(9)))
            .setManagedFields(random.nextBoolean() ? List.of() : List.of(
                new ManagedFieldsEntry("kubectl", ManagedFieldsOperation.Apply, "statesync.io/v1", null, "{\"f:spec\":{}}"),
                new ManagedFieldsEntry("m-" + random.nextInt(9), ManagedFieldsOperation.Update, "statesync.io/v1", time(random),
                    "{\"f:metadata\":{\"f:labels\":{\"f:a\":{}}}}"))).build();
        List<Condition> conditions = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            conditions.add(Condition.newBuilder().setType("T" + i).setStatus(random.nextBoolean() ? "True" : "False")
                .setReason("R" + random.nextInt(9)).setMessage(random.nextBoolean() ? "" : "generation 3 \u00e9 \u4e2d applied")
                .setLastTransitionTime(time(random)).setObservedGeneration(random.nextBoolean() ? null : random.nextLong(1, 99)).build());
        }
        List<FieldDiff> diff = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            diff.add(FieldDiff.newBuilder().setPath(List.of("spec", "f" + i))
                .setKind(DiffKind.values()[random.nextInt(DiffKind.values().length)])
                .setDesired(random.nextBoolean() ? null : RandomValues.node(random, 2))
                .setObserved(random.nextBoolean() ? null : RandomValues.node(random, 2)).build());
        }
        CorrectionRef last = random.nextBoolean() ? null : CorrectionRef.newBuilder().setCommandId("c-" + random.nextInt())
            .setAction(Action.values()[random.nextInt(Action.values().length)])
            .setReason(Reason.values()[random.nextInt(Reason.values().length)]).setGeneration(random.nextLong(1, 99))
            .setAttempt(random.nextInt(1, 9)).setIssuedAt(time(random)).setDeadline(time(random)).build();
        ResourceStatus status = ResourceStatus.newBuilder().setObservedGeneration(random.nextLong(0, 99))
            .setSyncStatus(SyncStatus.values()[random.nextInt(SyncStatus.values().length)]).setConditions(conditions)
            .setDiff(diff).setAttempts(random.nextInt(0, 9)).setLastCorrection(last)
            .setConvergedAt(random.nextBoolean() ? null : time(random))
            .setLastObservedAt(random.nextBoolean() ? null : time(random))
            .setReported(random.nextBoolean() ? null : RandomValues.node(random, 3))
            .setReportedConditions(random.nextBoolean() ? List.of() : conditions).build();
        return Resource.newBuilder().setMetadata(meta).setSpec(RandomValues.node(random, 4)).setStatus(status).build();
    }

    static Correction randomCorrection(SplittableRandom random) {
        List<FieldOp> patch = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            patch.add(FieldOp.newBuilder().setOp(FieldOpType.values()[random.nextInt(FieldOpType.values().length)])
                .setPath(random.nextBoolean() ? List.of() : List.of("spec", "f" + i))
                .setValue(random.nextBoolean() ? null : RandomValues.node(random, 2)).build());
        }
        return Correction.newBuilder().setCommandId("c-" + random.nextInt()).setKind("WebApp").setNamespace("default")
            .setName("n-" + random.nextInt(99)).setUid("u-" + random.nextInt())
            .setAction(Action.values()[random.nextInt(Action.values().length)])
            .setReason(Reason.values()[random.nextInt(Reason.values().length)]).setGeneration(random.nextLong(1, 99))
            .setAttempt(random.nextInt(1, 9)).setPatch(patch).setDesiredSpec(random.nextBoolean() ? null : RandomValues.node(random, 3))
            .setIssuedAt(time(random)).setDeadline(time(random)).build();
    }

    static ObservedState randomObservation(SplittableRandom random) {
        List<Condition> conditions = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            conditions.add(Condition.newBuilder().setType("Ready").setStatus("True").setReason("Up").setMessage("\u00e9 ok " + i)
                .setLastTransitionTime(time(random)).setObservedGeneration(random.nextBoolean() ? null : 7L).build());
        }
        return ObservedState.newBuilder().setKind("WebApp").setNamespace("default").setName("n-" + random.nextInt(99))
            .setUid(random.nextBoolean() ? null : "u-" + random.nextInt()).setObservedGeneration(random.nextLong(0, 99))
            .setState(random.nextBoolean() ? null : RandomValues.node(random, 3))
            .setStatus(random.nextBoolean() ? null : RandomValues.node(random, 2)).setConditions(conditions)
            .setObservedAt(time(random)).setReporter("agent-" + random.nextInt(3))
            .setAckCommandId(random.nextBoolean() ? null : "c-" + random.nextInt())
            .setError(random.nextBoolean() ? null : new ApplyError("failed \u00e9 " + random.nextInt(), random.nextBoolean(),
                random.nextBoolean() ? null : "c-" + random.nextInt(), random.nextLong(0, 99))).build();
    }

    /** Every field of the state set or left out at random, the flags and counters included. */
    static ReconcileState randomState(SplittableRandom random) {
        return ReconcileState.newBuilder().setResource(random.nextBoolean() ? null : randomResource(random))
            .setObserved(random.nextBoolean() ? null : randomObservation(random))
            .setLastApplied(random.nextBoolean() ? null : RandomValues.node(random, 3))
            .setLastCorrection(random.nextBoolean() ? null : randomCorrection(random))
            .setLastCorrectionFingerprint(random.nextBoolean() ? null : "fp-\u00e9-" + random.nextInt())
            .setLastPlannedAttempt(random.nextInt(-2, 1 << 20)).setAttemptGeneration(random.nextLong())
            .setLastEmittedAttempt(random.nextInt()).setDesiredWrittenAt(random.nextLong(0, 1L << 42))
            .setDesiredDeleted(random.nextBoolean()).setNextCheckAt(random.nextLong(-1, 1L << 42))
            .setLastResyncAt(random.nextLong(0, 1L << 42)).setLastAppliedIsSpec(random.nextBoolean())
            .setObservedStateIsSpec(random.nextBoolean()).setLastCorrectionSpecIsApplied(random.nextBoolean())
            .setObservedFromStatus(random.nextBoolean())
            .setUnpublishedResourceVersion(random.nextBoolean() ? null : Integer.toString(random.nextInt(1 << 20)))
            .build();
    }

    private static Map<String, String> texts(SplittableRandom random, String prefix) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            m.put(prefix + i, random.nextBoolean() ? "" : "v-" + random.nextInt(100));
        }
        return m;
    }

    private static Instant time(SplittableRandom random) {
        return Instant.ofEpochMilli(random.nextLong(0, 4_000_000_000_000L));
    }

    private static <T extends SpecificRecord> byte[] ours(T record) throws IOException {
        return written(new ValueAwareDatumWriter<>(record.getSchema(), ClassResolvedUnionData.forClass(record.getClass())), record);
    }

    private static <T extends SpecificRecord> byte[] avros(T record) throws IOException {
        return written(new SpecificDatumWriter<>(record.getSchema()), record);
    }

    private static <T> byte[] written(DatumWriter<T> writer, T r) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(bytes, null);
        writer.write(r, enc);
        enc.flush();
        return bytes.toByteArray();
    }
}
