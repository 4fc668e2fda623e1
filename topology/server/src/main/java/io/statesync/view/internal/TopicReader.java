package io.statesync.view.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.topology.CommittedTailer;
import io.statesync.topology.LoopSupervisor;
import io.statesync.topology.ReadCommittedConsumers;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.StoredResource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer that tails statesync.resources for the view: group-less, read_committed, every partition from the
 * beginning (or from a snapshot's position), polled by a {@link CommittedTailer}. It hands each poll's records and the
 * positions after them to its {@link Listener}, and tells it once it has caught up with the end of every partition.
 *
 * <p>The loop runs under a {@link LoopSupervisor}: when it throws (the listener included), it is started again and reads
 * on from the positions after the last poll the listener took whole, so that a batch applied in part is read again.
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
    private CommittedTailer tailer;
    /** The partitions once assigned and handed to the listener; a restart keeps them. */
    private List<TopicPartition> parts;
    /** The positions after the last poll the listener took whole, where a restart reads on from. */
    private long[] applied;
    /** Whether the listener was told of the first catch-up, which happens once per start of the view. */
    private boolean toldCaughtUp;
    private long loadStart;
    private volatile boolean caughtUp;
    /** Set when the poll loop died: the view may then be behind its positions. */
    private volatile boolean failed;

    public TopicReader(AppConfig config, String topic, StoredResource.Decoder decoder, Listener listener) {
        this.config = config;
        this.topic = topic;
        this.decoder = decoder;
        this.listener = listener;
    }

    public void start() {
        loadStart = System.nanoTime();
        tailer = CommittedTailer.of("statesync-resource-hub", consumerProps(config), Duration.ofMillis(100), new Tail(), config)
            .start();
    }

    /** The supervisor of the poll loop, null before {@link #start}. */
    public LoopSupervisor loop() {
        return tailer == null ? null : tailer.loop();
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

    /** Whether the poll loop failed since its last whole poll: the view may then be behind its positions. */
    public boolean failed() {
        return failed;
    }

    /** Whether the reader was started and its thread has ended. */
    public boolean stopped() {
        return tailer != null && tailer.stopped();
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

    /** Assigns once; after a failure, reads on from the positions after the last poll the listener took whole. */
    private final class Tail implements CommittedTailer.Reader {

        @Override
        public void assign(Consumer<String, byte[]> consumer) {
            parts = assignAll(consumer);
            applied = positions(consumer, parts);
        }

        @Override
        public void resume(Consumer<String, byte[]> consumer) {
            parts.forEach(tp -> consumer.seek(tp, applied[tp.partition()]));
        }

        @Override
        public void polled(Consumer<String, byte[]> consumer, ConsumerRecords<String, byte[]> records) {
            long[] after = positions(consumer, parts);
            listener.polled(records, after);
            applied = after;
            failed = false;
            if (!caughtUp && parts.stream().allMatch(tp -> consumer.currentLag(tp).orElse(1) == 0)) {
                if (!toldCaughtUp) {
                    listener.caughtUp(loadStart);
                    toldCaughtUp = true;
                }
                caughtUp = true;
            }
            if (caughtUp) {
                listener.idle();
            }
        }

        @Override
        public void stopped(RuntimeException failure) {
            caughtUp = false;
            if (failure != null) {
                failed = true;
            }
        }
    }

    private List<TopicPartition> assignAll(Consumer<String, byte[]> consumer) {
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

    private static long[] positions(Consumer<String, byte[]> consumer, List<TopicPartition> parts) {
        long[] out = new long[parts.size()];
        parts.forEach(tp -> out[tp.partition()] = consumer.position(tp));
        return out;
    }

    /** Wakes the poll loop, waits for it, then closes the consumer. */
    @Override
    public void close() {
        if (tailer != null) {
            tailer.close();
        }
    }
}
