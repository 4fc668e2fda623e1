package io.statesync.topology;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

import io.statesync.config.AppConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One read_committed consumer tailing a topic on its own thread, under a {@link LoopSupervisor}: the instance's readers
 * beside Kafka Streams (admission answers, the event history, the resource view) share this skeleton and differ only in
 * their {@link Reader}. The reader assigns and positions the consumer on the first run; after a failure the loop is
 * started again with the consumer as it was, and the reader may move it back ({@link Reader#resume}).
 */
public final class CommittedTailer implements AutoCloseable {

    /** What one tailer does with its consumer, all on the tailer's thread. */
    public interface Reader {

        /** The first run: assigns the partitions and positions the consumer. */
        void assign(Consumer<String, byte[]> consumer);

        /** A run after a failure; by default it reads on from the consumer's positions. */
        default void resume(Consumer<String, byte[]> consumer) {
        }

        /** One poll's records, possibly none. */
        void polled(Consumer<String, byte[]> consumer, ConsumerRecords<String, byte[]> records);

        /** The loop stopped running: {@code failure} when it threw, null when it was closed. */
        default void stopped(RuntimeException failure) {
        }
    }

    private final String name;
    private final Supplier<Consumer<String, byte[]>> consumers;
    private final Duration pollTimeout;
    private final Reader reader;
    private final AppConfig config;
    private Consumer<String, byte[]> consumer;
    private LoopSupervisor supervisor;
    private boolean assigned;
    private volatile boolean positioned;
    private volatile boolean closed;

    public CommittedTailer(String name, Supplier<Consumer<String, byte[]>> consumers, Duration pollTimeout,
                           Reader reader, AppConfig config) {
        this.name = name;
        this.consumers = consumers;
        this.pollTimeout = pollTimeout;
        this.reader = reader;
        this.config = config;
    }

    /** A tailer whose consumer has {@code props} (see {@link ReadCommittedConsumers#readCommittedProps}). */
    public static CommittedTailer of(String name, Map<String, Object> props, Duration pollTimeout, Reader reader,
                                     AppConfig config) {
        return new CommittedTailer(name,
            () -> new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer()), pollTimeout, reader, config);
    }

    /** Creates the consumer and starts the loop on a daemon thread named {@code name}. */
    public CommittedTailer start() {
        consumer = consumers.get();
        supervisor = LoopSupervisor.of(name, this::run, config).start();
        return this;
    }

    /** The supervisor of the loop, null before {@link #start}. */
    public LoopSupervisor loop() {
        return supervisor;
    }

    /** Whether the loop runs with its consumer assigned and positioned. */
    public boolean positioned() {
        return positioned;
    }

    /** Whether the tailer was started and its thread has ended. */
    public boolean stopped() {
        return supervisor != null && !supervisor.thread().isAlive();
    }

    private void run() {
        RuntimeException failure = null;
        try {
            if (!assigned) {
                reader.assign(consumer);
                assigned = true;
            } else {
                reader.resume(consumer);
            }
            positioned = true;
            while (!closed) {
                reader.polled(consumer, consumer.poll(pollTimeout));
            }
        } catch (WakeupException e) {
            if (!closed) {
                failure = e;
                throw e;
            }
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            positioned = false;
            reader.stopped(failure);
        }
    }

    /** Stops the loop, wakes the consumer, waits for the thread, then closes the consumer. */
    @Override
    public void close() {
        closed = true;
        if (supervisor != null) {
            supervisor.stop();
        }
        ReadCommittedConsumers.stop(consumer, supervisor == null ? null : supervisor.thread());
    }
}
