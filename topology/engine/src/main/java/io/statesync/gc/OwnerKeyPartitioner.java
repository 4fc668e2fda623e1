package io.statesync.gc;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Sends a dependents index record ({@code ownerKey|dependentKey}) to the owner's partition: the one the default
 * partitioner picks for the owner's key as a String, so the record reaches the task that holds the owner.
 */
public final class OwnerKeyPartitioner implements StreamPartitioner<String, byte[]> {

    @Override
    public Optional<Set<Integer>> partitions(String topic, String key, byte[] value, int numPartitions) {
        return Optional.of(Set.of(partition(DependentRecord.ownerKey(key), numPartitions)));
    }

    /** The default partitioner's choice for a String key: murmur2 of its UTF-8 bytes. */
    public static int partition(String key, int numPartitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % numPartitions;
    }
}
