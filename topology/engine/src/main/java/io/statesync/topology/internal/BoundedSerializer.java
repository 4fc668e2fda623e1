package io.statesync.topology.internal;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * An output's serializer that refuses a record larger than the topics take. The refusal is a serialization error,
 * which Kafka Streams hands to the production exception handler before the producer sees the record: the input goes
 * to the DLQ and the task goes on, whereas a record the producer or the broker refuses under exactly-once leaves the
 * transaction unable to commit and the task failing on the same input.
 */
public final class BoundedSerializer<T> implements Serializer<T> {

    /** An output record over the limit; the message says which topic, its size and the limit. */
    public static final class OutputTooLargeException extends SerializationException {
        OutputTooLargeException(String message) {
            super(message);
        }
    }

    private final Serializer<T> inner;
    private final int maxBytes;

    public BoundedSerializer(Serializer<T> inner, int maxBytes) {
        this.inner = inner;
        this.maxBytes = maxBytes;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        return checked(topic, inner.serialize(topic, data));
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        return checked(topic, inner.serialize(topic, headers, data));
    }

    private byte[] checked(String topic, byte[] bytes) {
        if (bytes != null && bytes.length > maxBytes) {
            throw new OutputTooLargeException("the output to " + topic + " is " + bytes.length
                + " bytes, more than the " + maxBytes + " its records may have");
        }
        return bytes;
    }

    @Override
    public void close() {
        inner.close();
    }
}
