package io.statesync.serde;

import io.statesync.registry.SchemaRegistryClient;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@link AvroSerializer} for generated classes, under the name Kafka configuration expects.
 *
 * @param <T> the generated class
 */
public class SpecificAvroSerializer<T extends SpecificRecord> extends AvroSerializer<T> {

    public SpecificAvroSerializer() {
    }

    public SpecificAvroSerializer(SchemaRegistryClient registry) {
        super(registry);
    }
}
