package io.statesync.topology.internal;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A sink's serializer that takes a record either as the object it serializes or as the wire bytes it was already
 * serialized to: a processor that needs a record's bytes for itself too encodes it once and forwards the bytes.
 */
public final class WireBytesSerializer<T> implements Serializer<Object> {

    private final Serializer<T> inner;
    private final Class<T> type;

    public WireBytesSerializer(Serializer<T> inner, Class<T> type) {
        this.inner = inner;
        this.type = type;
    }

    @Override
    public byte[] serialize(String topic, Object data) {
        return data instanceof byte[] wire ? wire : inner.serialize(topic, type.cast(data));
    }

    @Override
    public byte[] serialize(String topic, Headers headers, Object data) {
        return data instanceof byte[] wire ? wire : inner.serialize(topic, headers, type.cast(data));
    }

    @Override
    public void close() {
        inner.close();
    }
}
