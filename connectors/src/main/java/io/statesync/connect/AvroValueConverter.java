package io.statesync.connect;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.serde.AvroSerdes;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;

/**
 * A Connect {@link Converter} over the project's Avro serde (Confluent wire format, schema registry). The Connect
 * value is the Avro specific record itself ({@code Correction}, {@code ObservedState}...) with a null Connect schema:
 * statesync's {@code Value} type is recursive and a Connect schema cannot express recursion, so a STRUCT mapping
 * would have to flatten specs to strings. Passing the record through keeps it exact; the statesync plugins read and
 * write these records directly.
 *
 * <p>Settings (under the {@code value.converter.} prefix in a connector or worker config):
 * {@code schema.registry.url} and the serde's other settings; {@code record.class}, the specific record class,
 * which defaults to the one the topic's name implies ({@code *corrections} is {@code Correction},
 * {@code *observed} is {@code ObservedState}, and so on).
 */
public class AvroValueConverter implements Converter {

    public static final String RECORD_CLASS = "record.class";

    private static final Map<String, Class<? extends SpecificRecord>> BY_TOPIC_SUFFIX = Map.of(
        "corrections", Correction.class,
        "observed", ObservedState.class,
        "desired", DesiredState.class,
        "resources", Resource.class,
        "events", ReconcileEvent.class,
        "kinds", KindPolicy.class);

    private final Map<Class<?>, Serde<? extends SpecificRecord>> serdes = new ConcurrentHashMap<>();
    private Map<String, Object> serdeConfig;
    private Class<? extends SpecificRecord> recordClass;
    private boolean isKey;

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.serdeConfig = new HashMap<>(configs);
        this.isKey = isKey;
        Object configured = configs.get(RECORD_CLASS);
        this.recordClass = configured == null ? null : loadRecordClass(configured.toString());
    }

    @Override
    public byte[] fromConnectData(String topic, Schema schema, Object value) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof SpecificRecord record)) {
            throw new DataException("Expected an Avro specific record, got " + value.getClass().getName());
        }
        return serializer(record.getClass()).serialize(topic, record);
    }

    @Override
    public SchemaAndValue toConnectData(String topic, byte[] value) {
        if (value == null) {
            return SchemaAndValue.NULL;
        }
        try {
            return new SchemaAndValue(null, serde(recordClass(topic)).deserializer().deserialize(topic, value));
        } catch (RuntimeException e) {
            throw new DataException("Cannot read an Avro record from " + topic + ": " + e.getMessage(), e);
        }
    }

    private Class<? extends SpecificRecord> recordClass(String topic) {
        if (recordClass != null) {
            return recordClass;
        }
        return BY_TOPIC_SUFFIX.entrySet().stream()
            .filter(e -> topic.endsWith(e.getKey()))
            .map(Map.Entry::getValue)
            .findFirst()
            .orElseThrow(() -> new DataException("No record class for topic " + topic + "; set " + RECORD_CLASS));
    }

    @SuppressWarnings("unchecked")
    private <T extends SpecificRecord> org.apache.kafka.common.serialization.Serializer<T> serializer(Class<?> type) {
        return (org.apache.kafka.common.serialization.Serializer<T>) serde(type.asSubclass(SpecificRecord.class))
            .serializer();
    }

    private Serde<? extends SpecificRecord> serde(Class<? extends SpecificRecord> type) {
        return serdes.computeIfAbsent(type, t -> AvroSerdes.specific(type, serdeConfig, isKey));
    }

    private static Class<? extends SpecificRecord> loadRecordClass(String name) {
        try {
            return Class.forName(name, true, AvroValueConverter.class.getClassLoader()).asSubclass(SpecificRecord.class);
        } catch (ClassNotFoundException | ClassCastException e) {
            throw new DataException(RECORD_CLASS + " must name an Avro specific record class: " + name, e);
        }
    }
}
