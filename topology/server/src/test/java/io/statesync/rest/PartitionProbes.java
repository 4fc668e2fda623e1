package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;

import io.statesync.gc.OwnerKeyPartitioner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check every abuse test ends with, shared with the kube module's tests: a write to a key on every partition
 * must be admitted within a bound, since an attack must leave no partition wedged.
 */
public final class PartitionProbes {

    private PartitionProbes() {
    }

    /**
     * PUTs one {@code Probe} resource to each of {@code partitions} partitions through {@code put} (a path and a body
     * to the answer) and asserts each is admitted (200 or 201) within {@code within}.
     */
    public static void assertEveryPartitionAdmits(BiFunction<String, Object, HttpResponse<String>> put, int partitions,
                                                  Duration within) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (int p = 0; p < partitions; p++) {
            String name = nameOnPartition("probe-" + run, p, partitions);
            long start = System.nanoTime();
            HttpResponse<String> r = put.apply("/api/v1/resources/Probe/default/" + name, Map.of("spec", Map.of("partition", p)));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(r.statusCode()).as("a write to partition %d after the attack (%d ms): %s", p, tookMs, r.body())
                .isBetween(200, 201);
            assertThat(tookMs).as("partition %d admits within %s", p, within).isLessThanOrEqualTo(within.toMillis());
        }
    }

    /** A resource name under {@code base} whose key {@code Probe/default/<name>} lands on {@code partition}. */
    public static String nameOnPartition(String base, int partition, int partitions) {
        for (int i = 0; ; i++) {
            String name = base + "-" + i;
            if (OwnerKeyPartitioner.partition("Probe/default/" + name, partitions) == partition) {
                return name;
            }
        }
    }
}
