package io.statesync.serde;

import java.io.EOFException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.statesync.registry.SchemaRegistryClient;
import io.statesync.registry.SchemaRegistryException;
import io.statesync.serde.SerdeException.Reason;
import io.statesync.serde.internal.BoundedDecoder;
import io.statesync.serde.internal.RegistryFailures;
import io.statesync.serde.internal.RegistryHandle;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the Confluent wire format: checks the header, fetches the writer schema by id (once per id), and decodes
 * with a reader that resolves it to the subclass's target. Every failure is a {@link SerdeException} naming the
 * topic and the reason; a null payload (tombstone) is null. Thread-safe.
 *
 * @param <T> what a record decodes to
 */
public abstract class AvroDeserializer<T> implements Deserializer<T> {

    /** A resolved reader, or why this writer schema can never be read, so a bad id costs one registry call. */
    private record Reader<T>(DatumReader<T> reader, String unreadable) {
    }

    private final Map<Integer, Reader<T>> readers = new ConcurrentHashMap<>();
    private final RegistryHandle registry;

    protected AvroDeserializer(SchemaRegistryClient registry) {
        this.registry = new RegistryHandle(registry);
    }

    /**
     * A reader for data written with {@code writer}.
     *
     * @throws IllegalArgumentException when this deserializer cannot read that schema, saying why
     */
    protected abstract DatumReader<T> newReader(Schema writer);

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        registry.configure(configs);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        SchemaRegistryClient client = registry.get(this);
        int id = header(topic, data);
        return decode(topic, id, readerFor(topic, id, client), data);
    }

    @Override
    public void close() {
        registry.close();
    }

    void useRegistry(SchemaRegistryClient shared) {
        registry.share(shared);
    }

    private static int header(String topic, byte[] data) {
        if (data.length > 0 && data[0] != WireFormat.MAGIC_BYTE) {
            throw new SerdeException(topic, Reason.WRONG_MAGIC_BYTE, SerdeException.NO_SCHEMA_ID,
                String.format("expected magic byte 0x00 but found 0x%02x", data[0] & 0xff), null);
        }
        if (data.length < WireFormat.HEADER_SIZE) {
            throw new SerdeException(topic, Reason.TRUNCATED, SerdeException.NO_SCHEMA_ID,
                data.length + " bytes, shorter than the " + WireFormat.HEADER_SIZE + "-byte header", null);
        }
        return WireFormat.readId(data);
    }

    private DatumReader<T> readerFor(String topic, int id, SchemaRegistryClient client) {
        Reader<T> r = readers.get(id);
        if (r == null) {
            r = resolve(topic, id, client);
            readers.putIfAbsent(id, r);
        }
        if (r.unreadable() != null) {
            throw new SerdeException(topic, Reason.UNREADABLE_SCHEMA, id, r.unreadable(), null);
        }
        return r.reader();
    }

    private Reader<T> resolve(String topic, int id, SchemaRegistryClient client) {
        Schema writer;
        try {
            writer = client.getById(id);
        } catch (SchemaRegistryException e) {
            throw RegistryFailures.onFetch(topic, id, e);
        } catch (AvroRuntimeException e) {
            return new Reader<>(null, "the registry's schema is not valid Avro: " + e.getMessage());
        }
        try {
            return new Reader<>(newReader(writer), null);
        } catch (IllegalArgumentException | AvroRuntimeException e) {
            return new Reader<>(null, e.getMessage());
        }
    }

    private static <T> T decode(String topic, int id, DatumReader<T> reader, byte[] data) {
        BoundedDecoder decoder = BoundedDecoder.over(data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE);
        T value;
        boolean leftOver;
        try {
            value = reader.read(null, decoder);
            leftOver = !decoder.isEnd();
        } catch (EOFException e) {
            throw new SerdeException(topic, Reason.TRUNCATED, id, "the Avro data ends early", e);
        } catch (IOException | RuntimeException e) {
            throw new SerdeException(topic, Reason.MALFORMED_PAYLOAD, id, "cannot decode: " + e, e);
        }
        if (leftOver) {
            throw new SerdeException(topic, Reason.MALFORMED_PAYLOAD, id, "bytes left over after the record", null);
        }
        return value;
    }
}
