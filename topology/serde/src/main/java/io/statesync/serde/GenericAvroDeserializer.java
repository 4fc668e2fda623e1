package io.statesync.serde;

import io.statesync.registry.SchemaRegistryClient;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;

/** Reads records as {@link GenericRecord}s in their writer schema, for tools that handle any topic. */
public class GenericAvroDeserializer extends AvroDeserializer<GenericRecord> {

    public GenericAvroDeserializer() {
        this(null);
    }

    /** @param registry a shared client, or null to create one in {@link #configure} */
    public GenericAvroDeserializer(SchemaRegistryClient registry) {
        super(registry);
    }

    @Override
    protected DatumReader<GenericRecord> newReader(Schema writer) {
        if (writer.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("the writer schema is a " + writer.getType() + ", not a record");
        }
        return new GenericDatumReader<>(writer);
    }
}
