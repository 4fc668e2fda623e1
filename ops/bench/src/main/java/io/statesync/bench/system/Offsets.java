package io.statesync.bench.system;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** Progress of a consumer group, read from the broker: what the group committed against the inputs' end offsets. */
public final class Offsets {

    private Offsets() {
    }

    public static Map<TopicPartition, Long> endOffsets(Admin admin, List<String> topics) throws Exception {
        Map<TopicPartition, OffsetSpec> request = admin.describeTopics(topics).allTopicNames().get().values().stream()
            .flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
            .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
        return admin.listOffsets(request).all().get().entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    public static long total(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Polls the group's committed offsets (every 50 ms) until each input partition reached its end; returns nanoTime then. */
    public static long awaitCommitted(Admin admin, String group, Map<TopicPartition, Long> ends, long timeoutMs)
        throws Exception {
        long start = System.currentTimeMillis();
        long deadline = start + timeoutMs;
        long nextReport = start + 10_000;
        while (System.currentTimeMillis() < deadline) {
            Map<TopicPartition, OffsetAndMetadata> committed = committed(admin, group);
            if (reached(committed, ends)) {
                return System.nanoTime();
            }
            if (System.currentTimeMillis() >= nextReport) {
                nextReport += 10_000;
                System.err.printf("  %s: %,d of %,d input records committed after %d s%n", group,
                    committed.values().stream().filter(java.util.Objects::nonNull).mapToLong(OffsetAndMetadata::offset).sum(), total(ends),
                    (System.currentTimeMillis() - start) / 1000);
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("group " + group + " did not reach the end offsets in " + timeoutMs + " ms");
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String group)
        throws InterruptedException, ExecutionException {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    }

    private static boolean reached(Map<TopicPartition, OffsetAndMetadata> committed, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> {
            OffsetAndMetadata c = committed.get(e.getKey());
            return e.getValue() == 0 || (c != null && c.offset() >= e.getValue());
        });
    }
}
