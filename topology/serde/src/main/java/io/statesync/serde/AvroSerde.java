package io.statesync.serde;

import java.util.Map;

import io.statesync.registry.SchemaRegistryClient;
import io.statesync.registry.SchemaRegistryClients;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A serializer and deserializer pair that share one registry client, and so one cache.
 *
 * @param <T> the record type
 */
public class AvroSerde<T extends IndexedRecord> implements Serde<T> {

    private final AvroSerializer<T> serializer;
    private final AvroDeserializer<T> deserializer;
    private final boolean clientGiven;
    private SchemaRegistryClient owned;

    /**
     * @param registry the client both halves already use, or null to create one in {@link #configure}
     */
    protected AvroSerde(AvroSerializer<T> serializer, AvroDeserializer<T> deserializer, SchemaRegistryClient registry) {
        this.serializer = serializer;
        this.deserializer = deserializer;
        this.clientGiven = registry != null;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        if (!clientGiven && owned == null) {
            owned = SchemaRegistryClients.forConfig(configs);
            serializer.useRegistry(owned);
            deserializer.useRegistry(owned);
        }
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }

    @Override
    public void close() {
        serializer.close();
        deserializer.close();
        if (owned != null) {
            owned.close();
        }
    }
}
