package io.statesync.serde;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.statesync.registry.RegisteredSchema;
import io.statesync.registry.SchemaRegistryClient;
import io.statesync.registry.SchemaRegistryException;
import io.statesync.serde.SerdeException.Reason;
import io.statesync.serde.internal.ClassResolvedUnionData;
import io.statesync.serde.internal.EncodeBuffer;
import io.statesync.serde.internal.RegistryFailures;
import io.statesync.serde.internal.RegistryHandle;
import io.statesync.serde.internal.ValueAwareDatumWriter;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes Avro records, generated or generic, in the Confluent wire format. The writer schema is the record's
 * own; it is registered (or looked up, with auto-registration off) under the topic's subject once per topic
 * and schema, then served from memory. Thread-safe. A null record is a tombstone and stays null.
 *
 * @param <T> the record type
 */
public class AvroSerializer<T extends IndexedRecord> implements Serializer<T> {

    private record TopicSchema(String topic, Schema schema) {
    }

    private final Map<TopicSchema, Integer> ids = new ConcurrentHashMap<>();
    /** Keyed by the generated class of a specific record, or by the schema of a generic one. */
    private final Map<Object, DatumWriter<T>> writers = new ConcurrentHashMap<>();
    private final RegistryHandle registry;
    private boolean autoRegister = true;
    private boolean isKey;

    /** For Kafka's configuration-driven construction; {@link #configure} creates the registry client. */
    public AvroSerializer() {
        this(null);
    }

    /** Uses a shared client (null: create one in {@link #configure}); configure still reads the other settings. */
    public AvroSerializer(SchemaRegistryClient registry) {
        this.registry = new RegistryHandle(registry);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
        this.autoRegister = autoRegister(configs);
        registry.configure(configs);
    }

    @Override
    public byte[] serialize(String topic, T record) {
        if (record == null) {
            return null;
        }
        Schema schema = record.getSchema();
        int id = schemaId(topic, schema, registry.get(this));
        try {
            return EncodeBuffer.encode(id, writerFor(record), record);
        } catch (IOException | RuntimeException e) {
            throw new SerdeException(topic, Reason.INVALID_RECORD, id,
                "cannot write " + schema.getFullName() + ": " + e, e);
        }
    }

    @Override
    public void close() {
        registry.close();
    }

    void useRegistry(SchemaRegistryClient shared) {
        registry.share(shared);
    }

    private int schemaId(String topic, Schema schema, SchemaRegistryClient client) {
        TopicSchema key = new TopicSchema(topic, schema);
        Integer cached = ids.get(key);
        if (cached != null) {
            return cached;
        }
        String subject = SerdeConfig.subject(topic, isKey);
        int id;
        try {
            id = autoRegister ? client.register(subject, schema)
                : client.lookup(subject, schema).map(RegisteredSchema::id).orElseThrow(() -> new SerdeException(
                    topic, Reason.SCHEMA_NOT_REGISTERED, SerdeException.NO_SCHEMA_ID, "subject " + subject
                    + " does not hold " + schema.getFullName() + " and " + SerdeConfig.AUTO_REGISTER_SCHEMAS
                    + " is false", null));
        } catch (SchemaRegistryException e) {
            throw RegistryFailures.onRegister(topic, e);
        }
        ids.put(key, id);
        return id;
    }

    /** Generated classes bring their own model, which holds the logical-type conversions (Instant...); unions resolve by class. */
    private DatumWriter<T> writerFor(T record) {
        if (record instanceof SpecificRecord) {
            return writers.computeIfAbsent(record.getClass(),
                c -> specificWriter(record.getSchema(), ClassResolvedUnionData.forClass(record.getClass())));
        }
        return writers.computeIfAbsent(record.getSchema(), s -> new GenericDatumWriter<>((Schema) s));
    }

    /**
     * The writer of a generated class, made once per class. A subclass may return one that copies parts another
     * serializer has just encoded; it must write the same bytes.
     */
    protected DatumWriter<T> specificWriter(Schema schema, SpecificData model) {
        return new ValueAwareDatumWriter<>(schema, model);
    }

    private static boolean autoRegister(Map<String, ?> configs) {
        Object v = configs.get(SerdeConfig.AUTO_REGISTER_SCHEMAS);
        return v == null || Boolean.parseBoolean(v.toString().trim());
    }
}
