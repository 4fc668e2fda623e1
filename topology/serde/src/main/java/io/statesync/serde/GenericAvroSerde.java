package io.statesync.serde;

import io.statesync.registry.SchemaRegistryClient;
import org.apache.avro.generic.GenericRecord;

/** Serde for {@link GenericRecord}s in their writer schema. */
public class GenericAvroSerde extends AvroSerde<GenericRecord> {

    public GenericAvroSerde() {
        this(null);
    }

    /** @param registry a shared client, or null to create one in {@link #configure} */
    public GenericAvroSerde(SchemaRegistryClient registry) {
        super(new GenericAvroSerializer(registry), new GenericAvroDeserializer(registry), registry);
    }
}
