package io.statesync.topology.internal;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import static io.statesync.topology.StatesyncHeaders.DLQ_ERROR_CLASS;
import static io.statesync.topology.StatesyncHeaders.DLQ_ERROR_MESSAGE;
import static io.statesync.topology.StatesyncHeaders.DLQ_ERROR_REASON;
import static io.statesync.topology.StatesyncHeaders.DLQ_SOURCE_OFFSET;
import static io.statesync.topology.StatesyncHeaders.DLQ_SOURCE_PARTITION;
import static io.statesync.topology.StatesyncHeaders.DLQ_SOURCE_TOPIC;

/** Builds dead-letter records: the original bytes, untouched, and the reason in headers. */
public final class DeadLetters {

    private static final int MAX_MESSAGE = 1_000;

    private DeadLetters() {
    }

    /** Adds the error headers to a copy of the source headers, so whatever the producer sent is kept. */
    public static Headers headers(Headers source, String reason, Throwable error, String message,
                                  String topic, int partition, long offset) {
        RecordHeaders h = new RecordHeaders(source == null ? new RecordHeaders().toArray() : source.toArray());
        add(h, DLQ_ERROR_CLASS, error == null ? "statesync.InvalidInput" : error.getClass().getName());
        add(h, DLQ_ERROR_REASON, reason);
        add(h, DLQ_ERROR_MESSAGE, truncate(message != null ? message : String.valueOf(error)));
        add(h, DLQ_SOURCE_TOPIC, String.valueOf(topic));
        add(h, DLQ_SOURCE_PARTITION, Integer.toString(partition));
        add(h, DLQ_SOURCE_OFFSET, Long.toString(offset));
        return h;
    }

    public static ProducerRecord<byte[], byte[]> record(String dlqTopic, byte[] key, byte[] value, Headers headers) {
        return new ProducerRecord<>(dlqTopic, null, key, value, headers);
    }

    private static void add(RecordHeaders h, String name, String value) {
        h.remove(name);
        h.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private static String truncate(String s) {
        return s.length() <= MAX_MESSAGE ? s : s.substring(0, MAX_MESSAGE) + "...";
    }
}
