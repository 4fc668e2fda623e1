package io.statesync.serde;

import io.statesync.registry.SchemaRegistryClient;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.io.DatumReader;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;

/**
 * Reads records into a generated class, resolving each writer schema (older or newer) to the class's schema.
 * A writer schema the class cannot read, such as another record type, is {@code UNREADABLE_SCHEMA}.
 *
 * @param <T> the generated class
 */
public class SpecificAvroDeserializer<T extends SpecificRecord> extends AvroDeserializer<T> {

    private final Class<T> type;

    /** Reads each record into the generated class named by its writer schema. */
    public SpecificAvroDeserializer() {
        this(null, null);
    }

    public SpecificAvroDeserializer(Class<T> type) {
        this(type, null);
    }

    /**
     * @param type the class to read into, or null for the one the writer schema names
     * @param registry a shared client, or null to create one in {@link #configure}
     */
    public SpecificAvroDeserializer(Class<T> type, SchemaRegistryClient registry) {
        super(registry);
        this.type = type;
    }

    @Override
    protected DatumReader<T> newReader(Schema writer) {
        Class<?> target = type != null ? type : SpecificData.get().getClass(writer);
        if (target == null || !SpecificRecord.class.isAssignableFrom(target)) {
            throw new IllegalArgumentException("no generated class for " + writer.getFullName());
        }
        SpecificData model = SpecificData.getForClass(target);
        Schema reader = model.getSchema(target);
        var result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getResult();
        if (result.getCompatibility() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw new IllegalArgumentException(writer.getFullName() + " cannot be read as " + reader.getFullName()
                + ": " + result.getIncompatibilities().stream()
                    .map(i -> i.getType() + " at " + i.getLocation()).toList());
        }
        return new SpecificDatumReader<>(writer, reader, model);
    }
}
