package io.statesync.serde.internal;

import java.io.IOException;
import java.util.Arrays;

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

    /**
     * An entry is kept for at least this many later ones and at most twice as many, so a thread that writes many
     * instances and never reads them back does not keep them for long.
     */
    static final int GENERATION = 4096;

    private record Entry(byte[] wire, Object[] fields) {
    }

    private final Class<? extends IndexedRecord> type;
    private final ThreadLocal<Entries> entries = ThreadLocal.withInitial(Entries::new);
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
        entries.get().put(record, new Entry(wire, fieldsOf(record)));
    }

    /**
     * Writes the kept encoding of a datum and forgets it; false, having written nothing, when there is none, when the
     * datum has changed since, or when the schema it is to be written with is not the one it was written with.
     */
    boolean writeKept(Schema schema, Object datum, Encoder out) throws IOException {
        if (datum == null || datum.getClass() != type) {
            return false;
        }
        Entry e = entries.get().take(datum);
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

    /**
     * One thread's entries by identity, in two generations of open-addressed slots. A taken entry leaves a marker
     * instead of a hole, and a generation is dropped whole: {@code IdentityHashMap}'s removal re-packs the entries
     * after the removed one, and with thousands kept between two commits that was 3% of the stream threads' time.
     */
    private static final class Entries {
        private static final int SLOTS = 2 * GENERATION;
        private static final Object TAKEN = new Object();

        private Generation current = new Generation();
        private Generation previous = new Generation();

        void put(Object record, Entry entry) {
            if (current.used == GENERATION) {
                Generation recycled = previous;
                recycled.clear();
                previous = current;
                current = recycled;
            }
            current.put(record, entry);
        }

        Entry take(Object record) {
            Entry e = current.take(record);
            return e != null ? e : previous.take(record);
        }

        int size() {
            return current.size() + previous.size();
        }

        private static final class Generation {
            private final Object[] keys = new Object[SLOTS];
            private final Entry[] values = new Entry[SLOTS];
            private int used;

            /** Into the entry's own slot if it has one, else the first taken slot of its run, else a new slot. */
            void put(Object record, Entry entry) {
                int free = -1;
                int i = slot(record);
                for (; keys[i] != null; i = (i + 1) & (SLOTS - 1)) {
                    if (keys[i] == record) {
                        values[i] = entry;
                        return;
                    }
                    if (free < 0 && keys[i] == TAKEN) {
                        free = i;
                    }
                }
                if (free < 0) {
                    free = i;
                    used++;
                }
                keys[free] = record;
                values[free] = entry;
            }

            Entry take(Object record) {
                for (int i = slot(record); keys[i] != null; i = (i + 1) & (SLOTS - 1)) {
                    if (keys[i] == record) {
                        Entry e = values[i];
                        keys[i] = TAKEN;
                        values[i] = null;
                        return e;
                    }
                }
                return null;
            }

            void clear() {
                Arrays.fill(keys, null);
                Arrays.fill(values, null);
                used = 0;
            }

            int size() {
                int n = 0;
                for (Entry e : values) {
                    n += e == null ? 0 : 1;
                }
                return n;
            }

            private static int slot(Object record) {
                int h = System.identityHashCode(record);
                return (h ^ (h >>> 16)) & (SLOTS - 1);
            }
        }
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
