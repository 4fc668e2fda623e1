package io.statesync.serde.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.FieldDiff;
import io.statesync.avro.FieldOp;
import io.statesync.avro.Health;
import io.statesync.avro.ManagedFieldsEntry;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ApplyError;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.Value;
import io.statesync.avro.store.ReconcileState;
import io.statesync.serde.PreEncodedRecords;
import io.statesync.serde.WireFormat;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Writes the records statesync encodes most (the {@link Resource}, the {@link Correction}, the per-key
 * {@link ReconcileState} and the {@link ObservedState} inside it) field by field, in the bytes Avro writes for them (a
 * test compares them on random records).
 *
 * <p>Why: Avro writes each field through generic dispatch (field lookup, union resolution by class, logical-type
 * conversion of every timestamp), and its generated classes carry no {@code customEncode}, which Avro generates only for
 * records without logical types or wide unions. These records are encoded for nearly every event the topology
 * processes, so that dispatch sits on its hottest path.
 *
 * <p>Each writer is for one version of its schema: the parsing-form fingerprint of each schema is a constant here, and a
 * record of any other schema goes to Avro. A test fails when a schema changes, so that this class changes with it.
 */
final class RecordEncoders {

    /** {@link SchemaNormalization#parsingFingerprint64} of each schema this class writes. */
    static final long RESOURCE_FINGERPRINT = 5585400843002791420L;
    static final long CORRECTION_FINGERPRINT = -985270407972341944L;
    static final long OBSERVED_STATE_FINGERPRINT = 4564129052645942112L;
    static final long RECONCILE_STATE_FINGERPRINT = -4362738880444117063L;

    /** Writes one item: of an array, or the branch of a {@code [null, X]} union. */
    interface ItemWriter<T> {
        void write(T item, Encoder out) throws IOException;
    }

    /** Writes the root {@link Value} of a field, as the datum writer does. */
    interface ValueWriter extends ItemWriter<Value> {
    }

    /**
     * Writes a nested record as the datum writer writes a record: a copy of bytes kept for it, this class, or Avro.
     * The state goes through it for the records it holds, so that the Resource it has just published is copied.
     */
    interface RecordWriter {
        void write(Schema schema, Object datum, Encoder out) throws IOException;
    }

    /**
     * Whether a schema is the one a writer was written for. A record nested in another (the Resource in the state) has
     * its own instance of the schema, equal but not the same; the last one found equal is remembered, since comparing
     * walks the whole schema.
     */
    static final class Guard {
        private final Schema schema;
        private final boolean current;
        private volatile Schema lastEqual;

        Guard(Schema schema, long expectedFingerprint) {
            this.schema = schema;
            this.current = SchemaNormalization.parsingFingerprint64(schema) == expectedFingerprint;
        }

        boolean accepts(Schema s) {
            if (!current) {
                return false;
            }
            if (s == schema || s == lastEqual) {
                return true;
            }
            if (!s.equals(schema)) {
                return false;
            }
            lastEqual = s;
            return true;
        }
    }

    static final Guard RESOURCE = new Guard(Resource.getClassSchema(), RESOURCE_FINGERPRINT);
    static final Guard CORRECTION = new Guard(Correction.getClassSchema(), CORRECTION_FINGERPRINT);
    static final Guard OBSERVED_STATE = new Guard(ObservedState.getClassSchema(), OBSERVED_STATE_FINGERPRINT);
    static final Guard RECONCILE_STATE = new Guard(ReconcileState.getClassSchema(), RECONCILE_STATE_FINGERPRINT);

    /** The state's fields that hold records: each is {@code [null, record]}. */
    private static final int STATE_RESOURCE = 0;
    private static final int STATE_OBSERVED = 1;
    private static final int STATE_CORRECTION = 3;

    private RecordEncoders() {
    }

    /** Writes {@code datum} when this class has a writer for it and its schema; false, having written nothing, otherwise. */
    static boolean write(Schema schema, Object datum, Encoder out, ValueWriter values, RecordWriter records)
        throws IOException {
        if (datum instanceof ReconcileState st && RECONCILE_STATE.accepts(schema)) {
            writeState(schema, st, out, values, records);
        } else if (datum instanceof Resource r && RESOURCE.accepts(schema)) {
            writeResource(r, out, values);
        } else if (datum instanceof Correction c && CORRECTION.accepts(schema)) {
            writeCorrection(c, out, values);
        } else if (datum instanceof ObservedState o && OBSERVED_STATE.accepts(schema)) {
            writeObservedState(o, out, values);
        } else {
            return false;
        }
        return true;
    }

    private static void writeState(Schema schema, ReconcileState st, Encoder out, ValueWriter values, RecordWriter records)
        throws IOException {
        writeResourceOf(schema, st, out, records);
        writeNested(schema, STATE_OBSERVED, st.getObserved(), out, records);
        writeOptional(st.getLastApplied(), values, out);
        writeNested(schema, STATE_CORRECTION, st.getLastCorrection(), out, records);
        writeOptional(st.getLastCorrectionFingerprint(), RecordEncoders::writeText, out);
        out.writeInt(st.getLastPlannedAttempt());
        out.writeLong(st.getAttemptGeneration());
        out.writeInt(st.getLastEmittedAttempt());
        out.writeLong(st.getDesiredWrittenAt());
        out.writeBoolean(st.getDesiredDeleted());
        out.writeLong(st.getNextCheckAt());
        out.writeLong(st.getLastResyncAt());
        out.writeBoolean(st.getLastAppliedIsSpec());
        out.writeBoolean(st.getObservedStateIsSpec());
        out.writeBoolean(st.getLastCorrectionSpecIsApplied());
        out.writeBoolean(st.getObservedFromStatus());
        writeOptional(st.getUnpublishedResourceVersion(), RecordEncoders::writeText, out);
    }

    /**
     * The state's Resource: the bytes it was published with when they are lent ({@link PreEncodedRecords}), since a
     * reconcile that publishes the Resource leaves it as the state keeps it, and the state is written at the commit.
     */
    private static void writeResourceOf(Schema schema, ReconcileState st, Encoder out, RecordWriter records)
        throws IOException {
        byte[] wire = PreEncodedRecords.wireBytesOf(st.getResource());
        if (wire == null) {
            writeNested(schema, STATE_RESOURCE, st.getResource(), out, records);
            return;
        }
        assert Arrays.equals(Arrays.copyOfRange(wire, WireFormat.HEADER_SIZE, wire.length),
            encoded(schema.getFields().get(STATE_RESOURCE).schema().getTypes().get(1), st.getResource(), records))
            : "the bytes lent for the state's Resource are not its encoding: it changed after they were made";
        out.writeIndex(1);
        out.writeFixed(wire, WireFormat.HEADER_SIZE, wire.length - WireFormat.HEADER_SIZE);
    }

    /** For the assertion above only. */
    private static byte[] encoded(Schema schema, Object record, RecordWriter records) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            Encoder e = EncoderFactory.get().binaryEncoder(bytes, null);
            records.write(schema, record, e);
            e.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A {@code [null, record]} field of {@code schema}'s record, the record written with that field's own schema. */
    private static void writeNested(Schema schema, int field, Object record, Encoder out, RecordWriter records)
        throws IOException {
        if (record == null) {
            out.writeIndex(0);
            out.writeNull();
        } else {
            out.writeIndex(1);
            records.write(schema.getFields().get(field).schema().getTypes().get(1), record, out);
        }
    }

    private static void writeResource(Resource r, Encoder out, ValueWriter values) throws IOException {
        writeMeta(r.getMetadata(), out);
        values.write(r.getSpec(), out);
        writeStatus(r.getStatus(), out, values);
    }

    private static void writeMeta(ObjectMeta m, Encoder out) throws IOException {
        writeText(m.getKind(), out);
        writeText(m.getNamespace(), out);
        writeText(m.getName(), out);
        writeText(m.getUid(), out);
        writeText(m.getResourceVersion(), out);
        out.writeLong(m.getGeneration());
        writeTime(m.getCreationTimestamp(), out);
        writeOptional(m.getDeletionTimestamp(), RecordEncoders::writeTime, out);
        writeTextMap(m.getLabels(), out);
        writeTextMap(m.getAnnotations(), out);
        writeTextList(m.getFinalizers(), out);
        writeList(m.getOwnerReferences(), RecordEncoders::writeOwnerReference, out);
        writeList(m.getManagedFields(), RecordEncoders::writeManagedFieldsEntry, out);
    }

    private static void writeManagedFieldsEntry(ManagedFieldsEntry e, Encoder out) throws IOException {
        writeText(e.getManager(), out);
        out.writeEnum(e.getOperation().ordinal());
        writeText(e.getApiVersion(), out);
        writeOptional(e.getTime(), RecordEncoders::writeTime, out);
        writeText(e.getFieldsV1(), out);
    }

    private static void writeOwnerReference(OwnerReference r, Encoder out) throws IOException {
        writeText(r.getApiVersion(), out);
        writeText(r.getKind(), out);
        writeText(r.getName(), out);
        writeText(r.getUid(), out);
        out.writeBoolean(r.getController());
        out.writeBoolean(r.getBlockOwnerDeletion());
    }

    private static void writeStatus(ResourceStatus s, Encoder out, ValueWriter values) throws IOException {
        out.writeLong(s.getObservedGeneration());
        out.writeEnum(s.getSyncStatus().ordinal());
        writeList(s.getConditions(), RecordEncoders::writeCondition, out);
        writeList(s.getDiff(), (d, o) -> writeDiff(d, o, values), out);
        out.writeInt(s.getAttempts());
        writeOptional(s.getLastCorrection(), RecordEncoders::writeCorrectionRef, out);
        writeOptional(s.getConvergedAt(), RecordEncoders::writeTime, out);
        writeOptional(s.getLastObservedAt(), RecordEncoders::writeTime, out);
        writeHealth(s.getHealth(), out);
        writeOptional(s.getReported(), values, out);
        writeList(s.getReportedConditions(), RecordEncoders::writeCondition, out);
    }

    private static void writeHealth(Health h, Encoder out) throws IOException {
        out.writeEnum(h.getStatus().ordinal());
        writeText(h.getMessage(), out);
        writeOptional(h.getLastTransitionTime(), RecordEncoders::writeTime, out);
    }

    private static void writeCondition(Condition c, Encoder out) throws IOException {
        writeText(c.getType(), out);
        writeText(c.getStatus(), out);
        writeText(c.getReason(), out);
        writeText(c.getMessage(), out);
        writeTime(c.getLastTransitionTime(), out);
        writeOptional(c.getObservedGeneration(), (generation, o) -> o.writeLong(generation), out);
    }

    private static void writeDiff(FieldDiff d, Encoder out, ValueWriter values) throws IOException {
        writeTextList(d.getPath(), out);
        out.writeEnum(d.getKind().ordinal());
        writeOptional(d.getDesired(), values, out);
        writeOptional(d.getObserved(), values, out);
    }

    private static void writeCorrection(Correction c, Encoder out, ValueWriter values) throws IOException {
        writeText(c.getCommandId(), out);
        writeText(c.getKind(), out);
        writeText(c.getNamespace(), out);
        writeText(c.getName(), out);
        writeText(c.getUid(), out);
        out.writeEnum(c.getAction().ordinal());
        out.writeEnum(c.getReason().ordinal());
        out.writeLong(c.getGeneration());
        out.writeInt(c.getAttempt());
        writeList(c.getPatch(), (op, o) -> writeFieldOp(op, o, values), out);
        writeOptional(c.getDesiredSpec(), values, out);
        writeTime(c.getIssuedAt(), out);
        writeTime(c.getDeadline(), out);
    }

    private static void writeFieldOp(FieldOp op, Encoder out, ValueWriter values) throws IOException {
        out.writeEnum(op.getOp().ordinal());
        writeTextList(op.getPath(), out);
        writeOptional(op.getValue(), values, out);
    }

    private static void writeObservedState(ObservedState o, Encoder out, ValueWriter values) throws IOException {
        writeText(o.getKind(), out);
        writeText(o.getNamespace(), out);
        writeText(o.getName(), out);
        writeOptional(o.getUid(), RecordEncoders::writeText, out);
        out.writeLong(o.getObservedGeneration());
        writeOptional(o.getState(), values, out);
        writeOptional(o.getStatus(), values, out);
        writeList(o.getConditions(), RecordEncoders::writeCondition, out);
        writeTime(o.getObservedAt(), out);
        writeText(o.getReporter(), out);
        writeOptional(o.getAckCommandId(), RecordEncoders::writeText, out);
        writeOptional(o.getError(), RecordEncoders::writeApplyError, out);
    }

    private static void writeApplyError(ApplyError e, Encoder out) throws IOException {
        writeText(e.getMessage(), out);
        out.writeBoolean(e.getTerminal());
        writeOptional(e.getCommandId(), RecordEncoders::writeText, out);
        out.writeLong(e.getGeneration());
    }

    private static void writeCorrectionRef(CorrectionRef c, Encoder out) throws IOException {
        writeText(c.getCommandId(), out);
        out.writeEnum(c.getAction().ordinal());
        out.writeEnum(c.getReason().ordinal());
        out.writeLong(c.getGeneration());
        out.writeInt(c.getAttempt());
        writeTime(c.getIssuedAt(), out);
        writeTime(c.getDeadline(), out);
    }

    /** A {@code [null, X]} union: its index, then {@code item} when there is one. */
    private static <T> void writeOptional(T item, ItemWriter<? super T> writer, Encoder out) throws IOException {
        if (item == null) {
            out.writeIndex(0);
            out.writeNull();
        } else {
            out.writeIndex(1);
            writer.write(item, out);
        }
    }

    private static void writeTime(Instant t, Encoder out) throws IOException {
        out.writeLong(t.toEpochMilli());
    }

    /** Typed loosely: a decoded record may hold {@link org.apache.avro.util.Utf8} where the generated type says String. */
    private static void writeTextMap(Map<?, ?> map, Encoder out) throws IOException {
        out.writeMapStart();
        out.setItemCount(map.size());
        for (Map.Entry<?, ?> e : map.entrySet()) {
            out.startItem();
            writeText(e.getKey(), out);
            writeText(e.getValue(), out);
        }
        out.writeMapEnd();
    }

    private static void writeTextList(List<?> list, Encoder out) throws IOException {
        writeList(list, RecordEncoders::writeText, out);
    }

    private static <T> void writeList(List<T> items, ItemWriter<? super T> item, Encoder out) throws IOException {
        out.writeArrayStart();
        out.setItemCount(items.size());
        for (T t : items) {
            out.startItem();
            item.write(t, out);
        }
        out.writeArrayEnd();
    }

    private static void writeText(Object s, Encoder out) throws IOException {
        ValueAwareDatumWriter.writeText((CharSequence) s, out);
    }
}
