package io.statesync.view.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.topology.ReadCommittedConsumers;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.StoredResource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer that tails statesync.resources for the view: group-less, read_committed, every partition from the
 * beginning (or from a snapshot's position), polled by one daemon thread. It hands each poll's records and the
 * positions after them to its {@link Listener}, and tells it once it has caught up with the end of every partition.
 */
public final class TopicReader implements AutoCloseable {

    private static final int BULK_MAX_POLL_RECORDS = 5_000;
    private static final int BULK_MAX_PARTITION_FETCH_BYTES = 8 * 1024 * 1024;
    private static final int BULK_FETCH_MAX_BYTES = 64 * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(TopicReader.class);

    /** What the reader reports, all on its own thread. */
    public interface Listener {

        /**
         * The partitions are assigned, and hold the records from {@code logStart} to {@code logEnd}; returns where to
         * read from instead of the beginning (a snapshot's position), or null.
         */
        long[] assigned(long[] logStart, long[] logEnd);

        /** One poll's records, in order, and the reader's position after them in every partition. */
        void polled(ConsumerRecords<String, byte[]> records, long[] positions);

        /** The reader has read to the end of every partition for the first time, {@code loadStart} being its start. */
        void caughtUp(long loadStartNanos);

        /** After each poll once caught up. */
        void idle();
    }

    private final AppConfig config;
    private final String topic;
    private final StoredResource.Decoder decoder;
    private final Listener listener;
    private KafkaConsumer<String, byte[]> consumer;
    private Thread poller;
    private volatile boolean caughtUp;
    private volatile boolean closed;
    /** Set when the poll loop died: the view may then be behind its positions. */
    private volatile boolean failed;

    public TopicReader(AppConfig config, String topic, StoredResource.Decoder decoder, Listener listener) {
        this.config = config;
        this.topic = topic;
        this.decoder = decoder;
        this.listener = listener;
    }

    public void start() {
        consumer = new KafkaConsumer<>(consumerProps(config), new StringDeserializer(), new ByteArrayDeserializer());
        poller = ReadCommittedConsumers.startDaemon(this::pollLoop, "statesync-resource-hub");
    }

    /**
     * Group-less and read_committed, with larger polls and fetches than the defaults (500 records per poll, 1 MiB per
     * partition), which make a million-record catch-up thousands of round trips. Values the operator set with the
     * {@code consumer.} prefix are kept.
     */
    static Map<String, Object> consumerProps(AppConfig config) {
        Map<String, Object> p = ReadCommittedConsumers.readCommittedProps(config, "-resource-hub");
        p.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, BULK_MAX_POLL_RECORDS);
        p.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, BULK_MAX_PARTITION_FETCH_BYTES);
        p.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, BULK_FETCH_MAX_BYTES);
        return p;
    }

    /** Whether the reader has caught up and still runs. */
    public boolean caughtUp() {
        return caughtUp;
    }

    /** Whether the poll loop died of an error rather than being stopped. */
    public boolean failed() {
        return failed;
    }

    /** Whether the reader was started and its thread has ended. */
    public boolean stopped() {
        return poller != null && !poller.isAlive();
    }

    /**
     * The resource {@code r} holds under {@code key} (the view's copy of the record's key string); null, with a warning,
     * when it cannot be decoded. {@code r} must have a value.
     */
    public StoredResource decode(String key, ConsumerRecord<String, byte[]> r) {
        try {
            return StoredResource.of(key, r.value(), summary(r), decoder);
        } catch (RuntimeException e) {
            LOG.warn("Skipping undecodable resource at {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.toString());
            return null;
        }
    }

    /** From the header when the topology wrote one, so that loading the view decodes nothing; else by decoding. */
    private ResourceSummary summary(ConsumerRecord<String, byte[]> r) {
        ResourceSummary s = ResourceSummary.from(r.headers());
        return s != null ? s : ResourceSummary.of(decoder.apply(r.value()));
    }

    private void pollLoop() {
        long loadStart = System.nanoTime();
        try {
            List<TopicPartition> parts = assignAll();
            while (!closed) {
                ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(100));
                listener.polled(records, positions(parts));
                if (!caughtUp && parts.stream().allMatch(tp -> consumer.currentLag(tp).orElse(1) == 0)) {
                    listener.caughtUp(loadStart);
                    caughtUp = true;
                }
                if (caughtUp) {
                    listener.idle();
                }
            }
        } catch (WakeupException e) {
            // close() woke us up
        } catch (RuntimeException e) {
            failed = true;
            LOG.error("The resource view's reader stopped; lists and watches are unavailable", e);
        } finally {
            caughtUp = false;
        }
    }

    private List<TopicPartition> assignAll() {
        List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(p.topic(), p.partition())).sorted((a, b) -> a.partition() - b.partition()).toList();
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        long[] begin = offsets(parts, consumer.beginningOffsets(parts));
        long[] end = offsets(parts, consumer.endOffsets(parts));
        long[] from = listener.assigned(begin, end);
        if (from != null) {
            parts.forEach(tp -> consumer.seek(tp, from[tp.partition()]));
        }
        return parts;
    }

    private static long[] offsets(List<TopicPartition> parts, Map<TopicPartition, Long> byPartition) {
        long[] out = new long[parts.size()];
        parts.forEach(tp -> out[tp.partition()] = byPartition.get(tp));
        return out;
    }

    private long[] positions(List<TopicPartition> parts) {
        long[] out = new long[parts.size()];
        parts.forEach(tp -> out[tp.partition()] = consumer.position(tp));
        return out;
    }

    /** Wakes the poll loop, waits for it, then closes the consumer. */
    @Override
    public void close() {
        closed = true;
        ReadCommittedConsumers.stop(consumer, poller);
    }
}
