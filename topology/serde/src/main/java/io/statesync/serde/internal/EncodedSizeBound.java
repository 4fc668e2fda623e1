package io.statesync.serde.internal;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Value;
import io.statesync.reconciler.CompactMap;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;

/**
 * A bound on the Avro binary size of a datum, added up from its schema without encoding it: varint widths and block
 * counts as the binary encoder writes them, and a text at most three bytes per char (what UTF-8 takes for any char
 * of a Java string, a surrogate pair's four bytes being two chars). Admission checks every write against a budget
 * far above a usual write, so the bound answers almost every check, and only a write near the budget is encoded to
 * learn its exact size. A datum the walk does not know (a logical type other than timestamp-millis, a non-Value child
 * in a Value tree) throws {@link Unsized}, and the caller encodes that record instead.
 */
public final class EncodedSizeBound {

    private EncodedSizeBound() {
    }

    /** The datum cannot be sized from its schema alone; the caller encodes it. */
    public static final class Unsized extends RuntimeException {
        Unsized() {
            super(null, null, false, false);
        }
    }

    private static final Unsized UNSIZED = new Unsized();
    private static final int MAX_UTF8_BYTES_PER_CHAR = 3;

    /** At least the Avro binary size of a record with {@code schema}. */
    public static long record(Schema schema, IndexedRecord record) {
        if (record instanceof Value v) {
            return node(v.getValue());
        }
        List<Schema.Field> fields = schema.getFields();
        long size = 0;
        for (int i = 0; i < fields.size(); i++) {
            size += datum(fields.get(i).schema(), record.get(i));
        }
        return size;
    }

    private static long datum(Schema schema, Object d) {
        return switch (schema.getType()) {
            case NULL -> 0;
            case BOOLEAN -> 1;
            case INT -> varint((Integer) d);
            case LONG -> varint(longOf(schema, d));
            case FLOAT -> 4;
            case DOUBLE -> 8;
            case STRING -> string((CharSequence) d);
            case BYTES -> bytes(((ByteBuffer) d).remaining());
            case FIXED -> schema.getFixedSize();
            case ENUM -> varint(d instanceof Enum<?> e ? e.ordinal() : schema.getEnumOrdinal(((GenericEnumSymbol<?>) d).toString()));
            case ARRAY -> items(schema.getElementType(), (Collection<?>) d);
            case MAP -> entries(schema.getValueType(), (Map<?, ?>) d);
            case UNION -> union(schema, d);
            case RECORD -> record(schema, (IndexedRecord) d);
        };
    }

    private static long longOf(Schema schema, Object d) {
        if (d instanceof Long l) {
            return l;
        }
        if (d instanceof Instant i && schema.getLogicalType() instanceof LogicalTypes.TimestampMillis) {
            return i.toEpochMilli();
        }
        throw UNSIZED;
    }

    /** A nullable field's union resolves by nullness; any other union by Avro's own rule. */
    private static long union(Schema schema, Object d) {
        List<Schema> branches = schema.getTypes();
        int index;
        if (branches.size() == 2 && (branches.get(0).getType() == Schema.Type.NULL) != (branches.get(1).getType() == Schema.Type.NULL)) {
            boolean nullFirst = branches.get(0).getType() == Schema.Type.NULL;
            index = (d == null) == nullFirst ? 0 : 1;
        } else {
            index = GenericData.get().resolveUnion(schema, d);
        }
        return varint(index) + datum(branches.get(index), d);
    }

    private static long items(Schema element, Collection<?> items) {
        long size = blocks(items.size());
        for (Object item : items) {
            size += datum(element, item);
        }
        return size;
    }

    private static long entries(Schema values, Map<?, ?> entries) {
        long size = blocks(entries.size());
        for (Map.Entry<?, ?> e : entries.entrySet()) {
            size += string((CharSequence) e.getKey()) + datum(values, e.getValue());
        }
        return size;
    }

    /**
     * One Value node: its branch index, which is a single byte, and its payload, as ValueAwareDatumWriter writes it.
     * Most nodes of a decoded tree are strings, longs and compact maps, so those classes are tested first: a test
     * against an interface costs far more than one against a class.
     */
    private static long node(Object v) {
        if (v == null) {
            return 1;
        } else if (v instanceof String s) {
            return 1 + string(s);
        } else if (v instanceof Long l) {
            return 1 + varint(l);
        } else if (v instanceof CompactMap<?, ?> compact) {
            long size = 1 + blocks(compact.size());
            for (int i = 0; i < compact.size(); i++) {
                size += string((CharSequence) compact.keyAt(i)) + child(compact.valueAt(i));
            }
            return size;
        } else if (v instanceof Boolean) {
            return 2;
        } else if (v instanceof Double) {
            return 9;
        } else if (v instanceof List<?> items) {
            long size = 1 + blocks(items.size());
            for (Object item : items) {
                size += child(item);
            }
            return size;
        } else if (v instanceof Map<?, ?> entries) {
            long size = 1 + blocks(entries.size());
            for (Map.Entry<?, ?> e : entries.entrySet()) {
                size += string((CharSequence) e.getKey()) + child(e.getValue());
            }
            return size;
        } else if (v instanceof CharSequence s) {
            return 1 + string(s);
        }
        throw UNSIZED;
    }

    private static long child(Object c) {
        if (c instanceof Value v) {
            return node(v.getValue());
        }
        throw UNSIZED;
    }

    /** An array or map written as one block: its count (when not empty) and the zero that ends it. */
    private static long blocks(int count) {
        return count == 0 ? 1 : varint(count) + 1;
    }

    private static long string(CharSequence s) {
        if (s == null) {
            throw UNSIZED;
        }
        return bytes(s instanceof Utf8 u ? u.getByteLength() : MAX_UTF8_BYTES_PER_CHAR * (long) s.length());
    }

    private static long bytes(long length) {
        return varint(length) + length;
    }

    /** The width of a zig-zag varint. */
    static int varint(long n) {
        long z = (n << 1) ^ (n >> 63);
        return z == 0 ? 1 : (70 - Long.numberOfLeadingZeros(z)) / 7;
    }
}
