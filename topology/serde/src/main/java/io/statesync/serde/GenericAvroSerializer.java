package io.statesync.serde;

import io.statesync.registry.SchemaRegistryClient;
import org.apache.avro.generic.GenericRecord;

/** {@link AvroSerializer} for {@link GenericRecord}s, under the name Kafka configuration expects. */
public class GenericAvroSerializer extends AvroSerializer<GenericRecord> {

    public GenericAvroSerializer() {
    }

    public GenericAvroSerializer(SchemaRegistryClient registry) {
        super(registry);
    }
}
