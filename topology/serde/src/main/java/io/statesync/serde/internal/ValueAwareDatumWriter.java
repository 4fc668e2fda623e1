package io.statesync.serde.internal;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Value;
import io.statesync.reconciler.CompactMap;
import org.apache.avro.Schema;
import org.apache.avro.io.Encoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.util.Utf8;

/**
 * A {@link SpecificDatumWriter} that writes the recursive {@link Value} by hand. Avro resolves the union of every node
 * of a spec tree through the data model and writes each node through three generic dispatches; specs are most of the
 * bytes statesync writes, so their nodes pick the branch with an {@code instanceof} chain instead. The bytes are the
 * ones Avro writes (a test compares them); a node Avro could not write either goes to Avro, which raises its error.
 */
public final class ValueAwareDatumWriter<T> extends SpecificDatumWriter<T> {

    private static final int NULL = 0;
    private static final int BOOLEAN = 1;
    private static final int LONG = 2;
    private static final int DOUBLE = 3;
    private static final int STRING = 4;
    private static final int ARRAY = 5;
    private static final int MAP = 6;
    private static final List<Schema.Type> BRANCHES = List.of(Schema.Type.NULL, Schema.Type.BOOLEAN, Schema.Type.LONG,
        Schema.Type.DOUBLE, Schema.Type.STRING, Schema.Type.ARRAY, Schema.Type.MAP);

    /** The last schema instance found to be Value's: a root schema holds its own copy, and comparing costs a walk. */
    private volatile Schema checkedValueSchema;
    /** Made once: a method reference built at each record would be an allocation per record. */
    private final RecordEncoders.ValueWriter rootWriter = this::writeRoot;
    private final RecordEncoders.RecordWriter nestedWriter = this::writeRecord;

    public ValueAwareDatumWriter(Schema root, SpecificData data) {
        super(root, data);
    }

    @Override
    protected void writeRecord(Schema schema, Object datum, Encoder out) throws IOException {
        if (datum instanceof Value v) {
            if (!isValueSchema(schema) || !writeNode(schema, v.getValue(), out)) {
                super.writeRecord(schema, datum, out);
            }
        } else if (!RecordEncoders.write(schema, datum, out, rootWriter, nestedWriter)) {
            super.writeRecord(schema, datum, out);
        }
    }

    /** A field's root Value, written as {@link #writeRecord} writes one. */
    private void writeRoot(Value v, Encoder out) throws IOException {
        Schema valueSchema = Value.getClassSchema();
        if (!writeNode(valueSchema, v.getValue(), out)) {
            super.writeRecord(valueSchema, v, out);
        }
    }

    private boolean isValueSchema(Schema schema) {
        if (schema == checkedValueSchema) {
            return true;
        }
        if (!hasValueShape(schema)) {
            return false;
        }
        checkedValueSchema = schema;
        return true;
    }

    /** Value's schema, with the branches in the order this class writes them. */
    private static boolean hasValueShape(Schema schema) {
        if (schema != Value.getClassSchema() && !schema.equals(Value.getClassSchema())) {
            return false;
        }
        List<Schema> types = schema.getFields().get(0).schema().getTypes();
        return types.size() == BRANCHES.size() && types.stream().map(Schema::getType).toList().equals(BRANCHES);
    }

    /**
     * Writes one node, or returns false, having written nothing, when the node's Java type is not one Avro accepts.
     * Most nodes of a decoded tree are strings, longs and compact maps, so those classes are tested first: a test
     * against an interface costs far more than one against a class.
     */
    private boolean writeNode(Schema valueSchema, Object node, Encoder out) throws IOException {
        if (node == null) {
            out.writeIndex(NULL);
            out.writeNull();
        } else if (node instanceof String s) {
            out.writeIndex(STRING);
            out.writeString(s);
        } else if (node instanceof Long l) {
            out.writeIndex(LONG);
            out.writeLong(l);
        } else if (node instanceof CompactMap<?, ?> entries) {
            out.writeIndex(MAP);
            writeEntries(valueSchema, entries, out);
        } else if (node instanceof Boolean b) {
            out.writeIndex(BOOLEAN);
            out.writeBoolean(b);
        } else if (node instanceof Double d) {
            out.writeIndex(DOUBLE);
            out.writeDouble(d);
        } else if (node instanceof List<?> items) {
            out.writeIndex(ARRAY);
            writeItems(valueSchema, items, out);
        } else if (node instanceof Map<?, ?> entries) {
            out.writeIndex(MAP);
            writeEntries(valueSchema, entries, out);
        } else if (node instanceof CharSequence s) {
            out.writeIndex(STRING);
            writeText(s, out);
        } else {
            return false;
        }
        return true;
    }

    private void writeItems(Schema valueSchema, List<?> items, Encoder out) throws IOException {
        out.writeArrayStart();
        out.setItemCount(items.size());
        for (Object item : items) {
            out.startItem();
            writeChild(valueSchema, item, out);
        }
        out.writeArrayEnd();
    }

    private void writeEntries(Schema valueSchema, Map<?, ?> entries, Encoder out) throws IOException {
        out.writeMapStart();
        out.setItemCount(entries.size());
        if (entries instanceof CompactMap<?, ?> compact) {
            // Decoded specs hold these: indexed, the walk needs no iterator and no entry objects.
            for (int i = 0; i < compact.size(); i++) {
                out.startItem();
                writeText((CharSequence) compact.keyAt(i), out);
                writeChild(valueSchema, compact.valueAt(i), out);
            }
            out.writeMapEnd();
            return;
        }
        for (Map.Entry<?, ?> e : entries.entrySet()) {
            out.startItem();
            writeText((CharSequence) e.getKey(), out);
            writeChild(valueSchema, e.getValue(), out);
        }
        out.writeMapEnd();
    }

    private void writeChild(Schema valueSchema, Object child, Encoder out) throws IOException {
        if (child instanceof Value v && writeNode(valueSchema, v.getValue(), out)) {
            return;
        }
        // Not a Value, or one Avro must refuse: let Avro write it or raise its own error.
        write(valueSchema, child, out);
    }

    static void writeText(CharSequence s, Encoder out) throws IOException {
        if (s instanceof Utf8 u) {
            out.writeString(u);
        } else {
            out.writeString(s.toString());
        }
    }
}
