package io.statesync.bench.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.javalin.http.Context;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Suite 4's floor for consistent reads: the least any read pays that must reflect every write committed before it
 * began, when the reading process learns the committed end from the brokers. Each read waits for a read_committed
 * end-offsets query sent after it arrived, shared with every read that arrived while the previous query was out, and
 * then answers "hello world" as the hello endpoint does. No view, no lookup, no JSON: what it reaches against the
 * hello endpoint bounds what a consistent read can reach against a plain one on a machine.
 */
final class ConsistentReadFloor implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final Thread thread;
    private final Object lock = new Object();
    private CompletableFuture<Map<TopicPartition, Long>> next;
    private boolean closed;

    ConsistentReadFloor(String bootstrap, String topic) {
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        this.thread = new Thread(this::serve, "consistent-read-floor");
        thread.setDaemon(true);
        thread.start();
    }

    /** The Javalin handler: a query sent after this read began, then the hello answer. */
    void handle(Context ctx) throws Exception {
        CompletableFuture<Map<TopicPartition, Long>> round;
        synchronized (lock) {
            if (next == null) {
                next = new CompletableFuture<>();
                lock.notifyAll();
            }
            round = next;
        }
        round.get(10, TimeUnit.SECONDS);
        ctx.result("hello world");
    }

    private void serve() {
        try {
            while (true) {
                CompletableFuture<Map<TopicPartition, Long>> round;
                synchronized (lock) {
                    while (next == null && !closed) {
                        lock.wait();
                    }
                    if (closed) {
                        return;
                    }
                    round = next;
                    next = null;
                }
                try {
                    round.complete(consumer.endOffsets(partitions, Duration.ofSeconds(10)));
                } catch (RuntimeException e) {
                    round.completeExceptionally(e);
                    if (e instanceof WakeupException) {
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            consumer.close(Duration.ZERO);
        }
    }

    @Override
    public void close() throws InterruptedException {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        consumer.wakeup();
        thread.join(10_000);
    }
}
