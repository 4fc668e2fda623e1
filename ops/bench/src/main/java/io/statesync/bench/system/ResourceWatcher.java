package io.statesync.bench.system;

import java.time.Duration;

import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the resources topic as a user would (read_committed) and tracks, per resource index, the highest generation
 * seen Synced. Convergence is when every resource is Synced at the generation the suite expects of it.
 */
final class ResourceWatcher implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Deserializer<Resource> deserializer;
    private final long[] expected;
    private final long[] syncedGeneration;
    private final String topic;

    ResourceWatcher(AppConfig config, long[] expected) {
        this.expected = expected;
        this.syncedGeneration = new long[expected.length];
        this.topic = new TopicNames(config.topicPrefix()).resources();
        this.deserializer = new TopologySerdes(config).resource().deserializer();
        this.consumer = CommittedReader.open(config, topic, false);
    }

    /** Returns the nanoTime at which the last expected resource was seen Synced. */
    long awaitAllSynced(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(20))) {
                record(r);
            }
            if (allSynced()) {
                return System.nanoTime();
            }
        }
        throw new IllegalStateException("not all resources Synced within " + timeout + ": " + pending() + " pending");
    }

    private void record(ConsumerRecord<byte[], byte[]> r) {
        if (r.value() == null) {
            return;
        }
        Resource res = deserializer.deserialize(topic, r.value());
        String name = res.getMetadata().getName();
        int index = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        if (res.getStatus().getSyncStatus() == SyncStatus.Synced
            && res.getStatus().getObservedGeneration() == res.getMetadata().getGeneration()) {
            syncedGeneration[index] = Math.max(syncedGeneration[index], res.getMetadata().getGeneration());
        }
    }

    private boolean allSynced() {
        return pending() == 0;
    }

    private int pending() {
        int pending = 0;
        for (int i = 0; i < expected.length; i++) {
            if (syncedGeneration[i] < expected[i]) {
                pending++;
            }
        }
        return pending;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
