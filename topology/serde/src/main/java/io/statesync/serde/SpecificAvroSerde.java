package io.statesync.serde;

import io.statesync.registry.SchemaRegistryClient;
import org.apache.avro.specific.SpecificRecord;

/**
 * Serde for a generated class.
 *
 * @param <T> the generated class
 */
public class SpecificAvroSerde<T extends SpecificRecord> extends AvroSerde<T> {

    /** For Kafka configuration: records are read into the class their writer schema names. */
    public SpecificAvroSerde() {
        this(null, null);
    }

    public SpecificAvroSerde(Class<T> type) {
        this(type, null);
    }

    /** @param registry a shared client, or null to create one in {@link #configure} */
    public SpecificAvroSerde(Class<T> type, SchemaRegistryClient registry) {
        super(new SpecificAvroSerializer<>(registry), new SpecificAvroDeserializer<>(type, registry), registry);
    }
}
