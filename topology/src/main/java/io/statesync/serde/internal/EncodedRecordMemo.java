package io.statesync.serde.internal;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;

import io.statesync.serde.WireFormat;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.Encoder;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The bytes a serializer has just written for one record instance, kept so that a larger record that holds the same
 * instance (a state that holds the Resource it has just published) can copy them instead of encoding it again.
 *
 * <p>Only instances of one generated class are kept. An entry is per thread: serializers and state stores of a stream
 * task run on its stream thread. It is handed out once, and only while the instance is unchanged: the memo keeps the
 * reference of every field of the record and of every record it holds directly, and any setter called since then on
 * either level shows as a different reference. Deeper values (spec trees, lists, maps) must not be changed in place,
 * which is statesync's rule for them anyway.
 */
public final class EncodedRecordMemo {

    /** A thread that writes many instances and never reads them back does not keep them for long. */
    static final int CAPACITY = 8192;

    private record Entry(byte[] wire, Object[] fields) {
    }

    private final Class<? extends IndexedRecord> type;
    private final ThreadLocal<Map<IndexedRecord, Entry>> entries = ThreadLocal.withInitial(IdentityHashMap::new);
    /** The last schema instance found equal to the kept type's: a nested copy of it is another instance. */
    private volatile Schema matchedSchema;

    public EncodedRecordMemo(Class<? extends IndexedRecord> type) {
        this.type = type;
    }

    /** A serializer that also keeps what it writes for instances of this memo's type. */
    public <T> Serializer<T> remembering(Serializer<T> inner) {
        return (topic, record) -> {
            byte[] wire = inner.serialize(topic, record);
            // Only a wire-format payload: the copy skips its header.
            if (wire != null && wire.length > WireFormat.HEADER_SIZE && wire[0] == WireFormat.MAGIC_BYTE
                && record != null && record.getClass() == type) {
                remember((IndexedRecord) record, wire);
            }
            return wire;
        };
    }

    void remember(IndexedRecord record, byte[] wire) {
        Map<IndexedRecord, Entry> kept = entries.get();
        if (kept.size() >= CAPACITY) {
            kept.clear();
        }
        kept.put(record, new Entry(wire, fieldsOf(record)));
    }

    /**
     * Writes the kept encoding of a datum and forgets it; false, having written nothing, when there is none, when the
     * datum has changed since, or when the schema it is to be written with is not the one it was written with.
     */
    boolean writeKept(Schema schema, Object datum, Encoder out) throws IOException {
        if (datum == null || datum.getClass() != type) {
            return false;
        }
        Entry e = entries.get().remove(datum);
        if (e == null || !unchanged((IndexedRecord) datum, e.fields) || !sameSchema(schema, (IndexedRecord) datum)) {
            return false;
        }
        out.writeFixed(e.wire, WireFormat.HEADER_SIZE, e.wire.length - WireFormat.HEADER_SIZE);
        return true;
    }

    /** Entries this thread keeps; for tests. */
    int size() {
        return entries.get().size();
    }

    private boolean sameSchema(Schema schema, IndexedRecord datum) {
        if (schema == matchedSchema) {
            return true;
        }
        if (!schema.equals(datum.getSchema())) {
            return false;
        }
        matchedSchema = schema;
        return true;
    }

    /** The record's field references, each nested record's field references after its own. */
    private static Object[] fieldsOf(IndexedRecord record) {
        int n = record.getSchema().getFields().size();
        int total = n;
        for (int i = 0; i < n; i++) {
            if (record.get(i) instanceof IndexedRecord nested) {
                total += nested.getSchema().getFields().size();
            }
        }
        Object[] out = new Object[total];
        int at = n;
        for (int i = 0; i < n; i++) {
            Object v = record.get(i);
            out[i] = v;
            if (v instanceof IndexedRecord nested) {
                for (int j = 0, m = nested.getSchema().getFields().size(); j < m; j++) {
                    out[at++] = nested.get(j);
                }
            }
        }
        return out;
    }

    private static boolean unchanged(IndexedRecord record, Object[] kept) {
        int n = record.getSchema().getFields().size();
        int at = n;
        for (int i = 0; i < n; i++) {
            Object v = record.get(i);
            if (!same(v, kept[i])) {
                return false;
            }
            if (v instanceof IndexedRecord nested) {
                for (int j = 0, m = nested.getSchema().getFields().size(); j < m; j++) {
                    if (at >= kept.length || !same(nested.get(j), kept[at++])) {
                        return false;
                    }
                }
            }
        }
        return at == kept.length;
    }

    /** The same reference; a primitive field comes back boxed afresh, so it compares by value. */
    private static boolean same(Object now, Object kept) {
        return now == kept || (now instanceof Number || now instanceof Boolean) && now.equals(kept);
    }
}
