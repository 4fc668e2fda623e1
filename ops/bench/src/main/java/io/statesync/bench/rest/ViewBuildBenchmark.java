package io.statesync.bench.rest;

import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.statesync.rest.internal.SortedRun;
import io.statesync.rest.internal.StoredResource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How the REST view builds its key-ordered map while it reads {@code statesync.resources} at start: the baseline
 * ({@code oneByOne}) keeps the hash map (default size) and the tree up to date record by record, as the view did
 * before 6ab8f3c; {@code sortedOnce} fills a hash map sized ahead and builds the tree once at the end
 * ({@link SortedRun#treeOf}), as it does now. The records are the view's input: {@code records} keys in hash
 * (partition) order, 3% of them written twice, each a {@link StoredResource} without bytes (only keys are compared).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 7)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx4g"})
public class ViewBuildBenchmark {

    @Param({"1000000"})
    public int records;

    private StoredResource[] input;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        input = new StoredResource[records];
        int keys = (int) (records * 0.97);
        for (int i = 0; i < records; i++) {
            int k = i < keys ? i : random.nextInt(keys);
            input[i] = StoredResource.absent("WebApp/ns-" + (k % 100) + "/app-" + k);
        }
        // Shuffled: the topic's partitions hand the view keys in hash order, not in key order.
        for (int i = records - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            StoredResource t = input[i];
            input[i] = input[j];
            input[j] = t;
        }
    }

    @Benchmark
    public int oneByOne() {
        ConcurrentHashMap<String, StoredResource> byKey = new ConcurrentHashMap<>();
        TreeMap<String, StoredResource> tree = new TreeMap<>();
        for (StoredResource r : input) {
            byKey.get(r.key());
            byKey.put(r.key(), r);
            tree.put(r.key(), r);
        }
        return tree.size() + byKey.size();
    }

    @Benchmark
    public int sortedOnce() {
        ConcurrentHashMap<String, StoredResource> byKey = new ConcurrentHashMap<>(records);
        for (StoredResource r : input) {
            byKey.get(r.key());
            byKey.put(r.key(), r);
        }
        TreeMap<String, StoredResource> tree = SortedRun.treeOf(byKey.values());
        return tree.size() + byKey.size();
    }
}
