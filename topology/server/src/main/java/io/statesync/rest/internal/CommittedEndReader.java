package io.statesync.rest.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.statesync.config.AppConfig;
import io.statesync.rest.ApiError;
import io.statesync.topology.ReadCommittedConsumers;
import io.statesync.view.WatchPosition;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A topic's committed end offsets (its last stable offsets, as a read_committed consumer sees them), taken by a
 * query sent after the caller asked: what a read that must reflect every write committed before it began waits for
 * the resource view to reach. One query serves every caller that asked while the previous query was out, so
 * concurrent consistent reads share one round trip to the brokers instead of paying one each.
 */
public final class CommittedEndReader implements AutoCloseable {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(10);

    /** One query for the end offsets, run on the reader's own thread only. */
    interface EndOffsetsQuery extends AutoCloseable {
        long[] query();

        /** Makes a query that blocks return at once (called from another thread). */
        void wakeup();

        @Override
        void close();
    }

    private final EndOffsetsQuery query;
    private final String topic;
    private final Thread thread;
    private final Object lock = new Object();
    /** The callers waiting for the next query, which is sent when the one in flight has returned. */
    private CompletableFuture<WatchPosition> next;
    private boolean closed;

    public CommittedEndReader(AppConfig config, String topic) {
        this(new KafkaEndOffsets(config, topic), topic);
    }

    CommittedEndReader(EndOffsetsQuery query, String topic) {
        this.query = query;
        this.topic = topic;
        this.thread = ReadCommittedConsumers.startDaemon(this::serve, "statesync-committed-end");
    }

    /** Per partition, the committed end offset as of a query sent after this call began; 503 when it cannot be read. */
    public WatchPosition get() {
        CompletableFuture<WatchPosition> round;
        synchronized (lock) {
            if (closed) {
                throw ApiError.unavailable("the server is stopping", 1);
            }
            if (next == null) {
                next = new CompletableFuture<>();
                lock.notifyAll();
            }
            round = next;
        }
        try {
            return round.get(QUERY_TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiError.unavailable("interrupted while reading the committed end of " + topic, 1);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw ApiError.unavailable("cannot read the committed end of " + topic + ": " + cause.getMessage(), 1);
        }
    }

    private void serve() {
        CompletableFuture<WatchPosition> round;
        while ((round = nextRound()) != null) {
            try {
                round.complete(new WatchPosition(query.query()));
            } catch (WakeupException e) {
                round.completeExceptionally(new IllegalStateException("the server is stopping"));
            } catch (RuntimeException e) {
                round.completeExceptionally(e);
            }
        }
        query.close();
    }

    /** Waits for a caller; the round its callers wait on, or null once closed. */
    private CompletableFuture<WatchPosition> nextRound() {
        synchronized (lock) {
            while (next == null && !closed) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    closed = true;
                }
            }
            if (closed) {
                return null;
            }
            CompletableFuture<WatchPosition> round = next;
            next = null;
            return round;
        }
    }

    @Override
    public void close() {
        CompletableFuture<WatchPosition> waiting;
        synchronized (lock) {
            closed = true;
            waiting = next;
            next = null;
            lock.notifyAll();
        }
        query.wakeup();
        if (waiting != null) {
            waiting.completeExceptionally(new IllegalStateException("the server is stopping"));
        }
        try {
            thread.join(QUERY_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The end offsets of every partition of a topic through a read_committed consumer that never polls. */
    private static final class KafkaEndOffsets implements EndOffsetsQuery {

        private final KafkaConsumer<byte[], byte[]> consumer;
        private final String topic;
        /** Looked up by the first query: the topic need not exist when the server binds. */
        private List<TopicPartition> partitions;

        KafkaEndOffsets(AppConfig config, String topic) {
            this.topic = topic;
            this.consumer = new KafkaConsumer<>(ReadCommittedConsumers.readCommittedProps(config, "-committed-end"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }

        @Override
        public long[] query() {
            if (partitions == null) {
                List<TopicPartition> tps = new ArrayList<>();
                consumer.partitionsFor(topic, QUERY_TIMEOUT).forEach(info -> tps.add(new TopicPartition(topic, info.partition())));
                if (tps.isEmpty()) {
                    throw new IllegalStateException(topic + " does not exist yet");
                }
                partitions = List.copyOf(tps);
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, QUERY_TIMEOUT);
            long[] out = new long[partitions.size()];
            ends.forEach((tp, offset) -> out[tp.partition()] = offset);
            return out;
        }

        @Override
        public void wakeup() {
            consumer.wakeup();
        }

        @Override
        public void close() {
            consumer.close(Duration.ZERO);
        }
    }
}
