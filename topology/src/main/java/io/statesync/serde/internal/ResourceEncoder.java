package io.statesync.serde.internal;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Condition;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.FieldDiff;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.Value;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.Encoder;

/**
 * Writes a {@link Resource} field by field, in the bytes Avro writes for it (a test compares them on random resources).
 *
 * <p>Why: statesync publishes a Resource at every change of one, and Avro writes each of its 30-odd fields through
 * generic dispatch (field lookup, union resolution by class, logical-type conversion of every timestamp); its generated
 * classes carry no {@code customEncode}, which Avro generates only for records without logical types or wide unions.
 * Encoding the Resource was a sixth of the stream threads' time in the throughput profile.
 *
 * <p>Written for one version of the schema: {@link #EXPECTED_FINGERPRINT} is its parsing-form fingerprint, and a
 * Resource of any other schema goes to Avro. A test fails when the schema changes, so that this class changes with it.
 */
final class ResourceEncoder {

    /** {@link SchemaNormalization#parsingFingerprint64} of the Resource schema this class writes. */
    static final long EXPECTED_FINGERPRINT = 5417775379938924695L;

    /** Writes the root {@link Value} of a field, as the datum writer does. */
    interface ValueWriter {
        void write(Value value, Encoder out) throws IOException;
    }

    private static final Schema SCHEMA = Resource.getClassSchema();
    private static final boolean CURRENT = SchemaNormalization.parsingFingerprint64(SCHEMA) == EXPECTED_FINGERPRINT;

    private ResourceEncoder() {
    }

    /** Whether {@code schema} is the one this class was written for, so that {@link #write} writes what Avro would. */
    static boolean writes(Schema schema) {
        return CURRENT && (schema == SCHEMA || schema.equals(SCHEMA));
    }

    static void write(Resource r, Encoder out, ValueWriter values) throws IOException {
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
        out.writeLong(m.getCreationTimestamp().toEpochMilli());
        writeOptionalTime(m.getDeletionTimestamp(), out);
        writeTextMap(m.getLabels(), out);
        writeTextMap(m.getAnnotations(), out);
        writeTextList(m.getFinalizers(), out);
    }

    private static void writeStatus(ResourceStatus s, Encoder out, ValueWriter values) throws IOException {
        out.writeLong(s.getObservedGeneration());
        out.writeEnum(s.getSyncStatus().ordinal());
        writeList(s.getConditions(), ResourceEncoder::writeCondition, out);
        writeList(s.getDiff(), (d, o) -> writeDiff(d, o, values), out);
        out.writeInt(s.getAttempts());
        writeCorrectionRef(s.getLastCorrection(), out);
        writeOptionalTime(s.getConvergedAt(), out);
        writeOptionalTime(s.getLastObservedAt(), out);
    }

    private static void writeCondition(Condition c, Encoder out) throws IOException {
        writeText(c.getType(), out);
        writeText(c.getStatus(), out);
        writeText(c.getReason(), out);
        writeText(c.getMessage(), out);
        out.writeLong(c.getLastTransitionTime().toEpochMilli());
        Long generation = c.getObservedGeneration();
        if (generation == null) {
            out.writeIndex(0);
            out.writeNull();
        } else {
            out.writeIndex(1);
            out.writeLong(generation);
        }
    }

    private static void writeDiff(FieldDiff d, Encoder out, ValueWriter values) throws IOException {
        writeTextList(d.getPath(), out);
        out.writeEnum(d.getKind().ordinal());
        writeOptionalValue(d.getDesired(), out, values);
        writeOptionalValue(d.getObserved(), out, values);
    }

    private static void writeCorrectionRef(CorrectionRef c, Encoder out) throws IOException {
        if (c == null) {
            out.writeIndex(0);
            out.writeNull();
            return;
        }
        out.writeIndex(1);
        writeText(c.getCommandId(), out);
        out.writeEnum(c.getAction().ordinal());
        out.writeEnum(c.getReason().ordinal());
        out.writeLong(c.getGeneration());
        out.writeInt(c.getAttempt());
        out.writeLong(c.getIssuedAt().toEpochMilli());
        out.writeLong(c.getDeadline().toEpochMilli());
    }

    private static void writeOptionalValue(Value v, Encoder out, ValueWriter values) throws IOException {
        if (v == null) {
            out.writeIndex(0);
            out.writeNull();
        } else {
            out.writeIndex(1);
            values.write(v, out);
        }
    }

    private static void writeOptionalTime(Instant t, Encoder out) throws IOException {
        if (t == null) {
            out.writeIndex(0);
            out.writeNull();
        } else {
            out.writeIndex(1);
            out.writeLong(t.toEpochMilli());
        }
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
        writeList(list, ResourceEncoder::writeText, out);
    }

    /** Writes one item of an array. */
    private interface ItemWriter<T> {
        void write(T item, Encoder out) throws IOException;
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
