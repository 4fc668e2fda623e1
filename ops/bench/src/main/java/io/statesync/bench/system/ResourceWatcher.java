package io.statesync.bench.system;

import java.time.Duration;
import java.util.Arrays;

import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.topology.ResourceSummary;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the resources topic as a user would (read_committed) and tracks, per resource index, the highest generation
 * seen Synced. Convergence is when every resource is Synced at the generation the suite expects of it.
 *
 * <p>It shares the two cores with what it measures, so it does as little as it can: a record whose summary header says
 * it is not Synced is skipped undecoded, and the resources still pending are counted as they change, not re-counted
 * at every poll, which would scan every resource many times a second.
 */
final class ResourceWatcher implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Deserializer<Resource> deserializer;
    private final long[] expected;
    private final long[] syncedGeneration;
    private final String topic;
    private int pending;

    /** Expects generation 1 of {@code resources} resources. */
    ResourceWatcher(AppConfig config, int resources) {
        this.expected = new long[resources];
        Arrays.fill(expected, 1);
        this.pending = resources;
        this.syncedGeneration = new long[resources];
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
            if (pending == 0) {
                return System.nanoTime();
            }
        }
        throw new IllegalStateException("not all resources Synced within " + timeout + ": " + pending + " pending");
    }

    /** From now on, resource {@code index} is converged at {@code generation}. */
    void expect(int index, long generation) {
        boolean wasPending = isPending(index);
        expected[index] = generation;
        pending += (isPending(index) ? 1 : 0) - (wasPending ? 1 : 0);
    }

    private void record(ConsumerRecord<byte[], byte[]> r) {
        ResourceSummary summary = ResourceSummary.from(r.headers());
        if (r.value() == null || summary != null && summary.syncStatus() != SyncStatus.Synced) {
            return;
        }
        Resource res = deserializer.deserialize(topic, r.value());
        String name = res.getMetadata().getName();
        int index = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        if (res.getStatus().getSyncStatus() == SyncStatus.Synced
            && res.getStatus().getObservedGeneration() == res.getMetadata().getGeneration()) {
            boolean wasPending = isPending(index);
            syncedGeneration[index] = Math.max(syncedGeneration[index], res.getMetadata().getGeneration());
            if (wasPending && !isPending(index)) {
                pending--;
            }
        }
    }

    private boolean isPending(int index) {
        return syncedGeneration[index] < expected[index];
    }

    @Override
    public void close() {
        consumer.close();
    }
}
