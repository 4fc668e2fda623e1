package io.statesync.serde;

import java.util.Map;

import io.statesync.registry.SchemaRegistryClient;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * Configured Avro serdes in the Confluent wire format. Pass one {@link SchemaRegistryClient} to every serde of an
 * application so that they share a cache; the overloads without one create a client per serde from
 * {@link SerdeConfig#SCHEMA_REGISTRY_URL} (a {@code mock://scope} URL shares the scope's registry).
 */
public final class AvroSerdes {

    private AvroSerdes() {
    }

    public static <T extends SpecificRecord> Serde<T> specific(Class<T> type, Map<String, ?> config, boolean isKey) {
        return configured(new SpecificAvroSerde<>(type), config, isKey);
    }

    public static <T extends SpecificRecord> Serde<T> specific(Class<T> type, SchemaRegistryClient registry,
                                                               Map<String, ?> config, boolean isKey) {
        return configured(new SpecificAvroSerde<>(type, registry), config, isKey);
    }

    public static Serde<GenericRecord> generic(Map<String, ?> config, boolean isKey) {
        return configured(new GenericAvroSerde(), config, isKey);
    }

    public static Serde<GenericRecord> generic(SchemaRegistryClient registry, Map<String, ?> config, boolean isKey) {
        return configured(new GenericAvroSerde(registry), config, isKey);
    }

    private static <S extends Serde<?>> S configured(S serde, Map<String, ?> config, boolean isKey) {
        serde.configure(config, isKey);
        return serde;
    }
}
