package io.statesync.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one existing topic from the beginning with read_committed, so that only what statesync committed is seen,
 * and hands every record to a callback on its own thread. The consumer reads raw bytes and the tail decodes each
 * value itself: a record that does not decode is skipped, counted ({@link #badRecords()}), logged and kept as a
 * sample ({@link #badRecordSamples()}), and the tail goes on with the next one. Had the consumer been given the
 * deserializer, one such record would have made every poll throw and ended the thread without a word.
 *
 * <p>Anything else that ends the thread (the callback throwing, the consumer failing) is kept and rethrown by
 * {@link #close()}, so that a dead tail fails the run instead of looking like a topic that went quiet.
 */
public final class TopicTail<V> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopicTail.class);
    private static final int MAX_SAMPLES = 10;

    private final org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final Deserializer<V> values;
    private final Thread thread;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong bad = new AtomicLong();
    private final List<String> badSamples = new CopyOnWriteArrayList<>();
    private volatile Throwable failure;
    private volatile boolean running = true;

    public TopicTail(Map<String, Object> clientProps, String topic, Deserializer<V> values, Consumer<ConsumerRecord<String, V>> sink) {
        this(new KafkaConsumer<>(consumerProps(clientProps), new ByteArrayDeserializer(), new ByteArrayDeserializer()), topic,
            values, sink);
    }

    /** On a given consumer of raw bytes (a {@code MockConsumer} in a unit test); the tail closes it. */
    TopicTail(org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer, String topic, Deserializer<V> values,
              Consumer<ConsumerRecord<String, V>> sink) {
        this.consumer = consumer;
        this.topic = topic;
        this.values = values;
        // Assigned, not subscribed: no group, so a broker restart cannot rebalance it back to the beginning and make
        // a record seen twice look like a duplicate emitted by statesync.
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(() -> loop(sink), "tail-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private static Map<String, Object> consumerProps(Map<String, Object> clientProps) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return props;
    }

    private void loop(Consumer<ConsumerRecord<String, V>> sink) {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> raw : consumer.poll(Duration.ofMillis(100))) {
                    ConsumerRecord<String, V> r = decode(raw);
                    if (r != null) {
                        sink.accept(r);
                        count.incrementAndGet();
                    }
                }
            }
        } catch (Throwable e) {
            failure = e;
            LOG.error("The tail of {} stopped after {} records", topic, count.get(), e);
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** The record with its key and value decoded, or null (counted and reported) when the value does not decode. */
    private ConsumerRecord<String, V> decode(ConsumerRecord<byte[], byte[]> raw) {
        V value;
        try {
            value = values.deserialize(raw.topic(), raw.headers(), raw.value());
        } catch (RuntimeException e) {
            long n = bad.incrementAndGet();
            String sample = raw.topic() + "-" + raw.partition() + "@" + raw.offset() + ": " + e;
            if (n <= MAX_SAMPLES) {
                badSamples.add(sample);
                LOG.warn("Skipped an undecodable record on {} ({} so far)", sample, n);
            }
            return null;
        }
        String key = raw.key() == null ? null : new String(raw.key(), StandardCharsets.UTF_8);
        return new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), raw.timestamp(), raw.timestampType(),
            raw.serializedKeySize(), raw.serializedValueSize(), key, value, raw.headers(), raw.leaderEpoch());
    }

    /** Records handed to the callback so far. */
    public long count() {
        return count.get();
    }

    /** Records skipped because their value did not decode. */
    public long badRecords() {
        return bad.get();
    }

    /** The first few undecodable records, as {@code topic-partition@offset: exception}. */
    public List<String> badRecordSamples() {
        return List.copyOf(badSamples);
    }

    /** Whether the thread still follows the topic. */
    public boolean alive() {
        return thread.isAlive();
    }

    /** @throws IllegalStateException when the tail had stopped on an error of its own (not a bad record) */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        Throwable f = failure;
        if (f != null) {
            throw new IllegalStateException("the tail of " + topic + " stopped on an error after " + count.get() + " records", f);
        }
    }
}
