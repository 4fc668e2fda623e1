package io.statesync.bench.system;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ObjLongConsumer;

import io.statesync.avro.Correction;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads statesync.corrections as an agent would (read_committed, so under EOS a correction counts only once its
 * transaction commits) from the current end, and hands each correction to the suite with the nanoTime it arrived.
 */
final class CorrectionTracker implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Deserializer<Correction> deserializer;
    private final String topic;
    private final ObjLongConsumer<Correction> onCorrection;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread = new Thread(this::poll, "correction-tracker");

    CorrectionTracker(AppConfig config, ObjLongConsumer<Correction> onCorrection) {
        this.onCorrection = onCorrection;
        this.topic = new TopicNames(config.topicPrefix()).corrections();
        this.deserializer = new TopologySerdes(config).correction().deserializer();
        this.consumer = CommittedReader.open(config, topic, true);
    }

    CorrectionTracker start() {
        thread.start();
        return this;
    }

    private void poll() {
        while (!stop.get()) {
            var records = consumer.poll(Duration.ofMillis(20));
            long arrived = System.nanoTime();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                onCorrection.accept(deserializer.deserialize(topic, r.value()), arrived);
            }
        }
    }

    /** Stops polling; after this returns, no more callbacks run, so the suite may read what they recorded. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join(10_000);
        consumer.close();
    }
}
