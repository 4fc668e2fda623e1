package io.statesync.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows one existing topic from the beginning with read_committed, so that only what statesync committed is seen,
 * and hands every record to a callback on its own thread. Decoding failures are the callback's concern: the
 * tail reads raw bytes through the given deserializer lazily, never stopping on one bad record.
 */
public final class TopicTail<V> implements AutoCloseable {

    private final KafkaConsumer<String, V> consumer;
    private final Thread thread;
    private final AtomicLong count = new AtomicLong();
    private volatile boolean running = true;

    public TopicTail(Map<String, Object> clientProps, String topic, Deserializer<V> values, Consumer<ConsumerRecord<String, V>> sink) {
        Map<String, Object> props = new java.util.HashMap<>(clientProps);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), values);
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

    private void loop(Consumer<ConsumerRecord<String, V>> sink) {
        try {
            while (running) {
                for (ConsumerRecord<String, V> r : consumer.poll(Duration.ofMillis(100))) {
                    sink.accept(r);
                    count.incrementAndGet();
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Records handed to the callback so far. */
    public long count() {
        return count.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
    }
}
