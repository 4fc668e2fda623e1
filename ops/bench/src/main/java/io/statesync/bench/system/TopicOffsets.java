package io.statesync.bench.system;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * The end offsets of a run's topics, summed over partitions: what a contender wrote to each output and changelog
 * between two snapshots. Under exactly-once every transaction also takes one offset per partition it wrote to (its
 * commit marker), so the counts include those, which cost the broker and the readers too.
 */
final class TopicOffsets {

    private TopicOffsets() {
    }

    /** Topic name -> sum of its partitions' end offsets, for the topics whose names contain {@code runId}. */
    static Map<String, Long> snapshot(Admin admin, String runId) throws ExecutionException, InterruptedException {
        List<String> topics = admin.listTopics().names().get().stream().filter(t -> t.contains(runId)).toList();
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicDescription d : admin.describeTopics(topics).allTopicNames().get().values()) {
            d.partitions().forEach(p -> request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<String, Long> sums = new TreeMap<>();
        admin.listOffsets(request).all().get().forEach((tp, info) -> sums.merge(tp.topic(), info.offset(), Long::sum));
        return sums;
    }

    /** "topic 1.23, ..." : offsets added per write between the snapshots, shortened to what follows {@code runId}. */
    static String perWrite(Map<String, Long> before, Map<String, Long> after, String runId, long writes) {
        return after.entrySet().stream()
            .filter(e -> e.getValue() - before.getOrDefault(e.getKey(), 0L) > 0)
            .map(e -> String.format("%s %.2f", shortName(e.getKey(), runId),
                (double) (e.getValue() - before.getOrDefault(e.getKey(), 0L)) / Math.max(1, writes)))
            .collect(Collectors.joining(", "));
    }

    private static String shortName(String topic, String runId) {
        int at = topic.indexOf(runId);
        String rest = topic.substring(at + runId.length());
        return rest.startsWith(".") || rest.startsWith("-") ? rest.substring(1) : rest;
    }
}
