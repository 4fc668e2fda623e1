package io.statesync.bench.rest;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;

import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.KeyOrder;
import io.statesync.view.LoadSorter;
import io.statesync.view.SortedRun;
import io.statesync.view.StoredResource;
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
 * ({@code oneByOne}) keeps the hash map (default size) and the tree up to date record by record; {@code sortedOnce}
 * fills a hash map sized ahead and builds the tree once at the end ({@link SortedRun#sortedOf}); {@code packedWhileRead}
 * packs each key as it is read and builds the tree from those arrays ({@link LoadSorter}); and
 * {@code packedWhileReadIntoSkipList} builds from those arrays the one skip list the view keeps, as the view does. The
 * records are the view's input: {@code records} keys in hash (partition) order, a few of them written twice, each a {@link StoredResource} allocated in that order with a value of
 * {@code valueBytes} beside it, as the view's heap holds them (a key's neighbours in memory are other partitions' keys
 * and their record values, not its neighbours in key order).
 *
 * <p>The sort alone, on the distinct resources as the view hands them over: {@code sortByKeyReference} is a plain
 * {@code Arrays.sort} by key (the baseline), {@code sortPackedKeys} is {@link KeyOrder#sort}. Both then build the tree with {@link SortedRun#treeOfSorted} (a check and a linear build).
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

    /** About what a resource record's value takes in the benchmarks' resources topic. */
    @Param({"550"})
    public int valueBytes;

    private StoredResource[] input;
    private StoredResource[] distinct;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        int keys = (int) (records * 0.97);
        int[] order = new int[records];
        for (int i = 0; i < records; i++) {
            order[i] = i < keys ? i : random.nextInt(keys);
        }
        // Shuffled: the topic's partitions hand the view keys in hash order, not in key order.
        for (int i = records - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        input = new StoredResource[records];
        ResourceSummary summary = new ResourceSummary(1, SyncStatus.Synced, false);
        ConcurrentHashMap<String, StoredResource> latest = new ConcurrentHashMap<>(records);
        for (int i = 0; i < records; i++) {
            int k = order[i];
            input[i] = StoredResource.of("WebApp/ns-" + (k % 100) + "/app-" + k, new byte[valueBytes], summary, null);
            latest.put(input[i].key(), input[i]);
        }
        distinct = latest.values().toArray(new StoredResource[0]);
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
        TreeMap<String, StoredResource> tree = new TreeMap<>(SortedRun.sortedOf(byKey.values()));
        return tree.size() + byKey.size();
    }

    @Benchmark
    public int packedWhileRead() {
        ConcurrentHashMap<String, StoredResource> byKey = new ConcurrentHashMap<>(records);
        LoadSorter sorter = loadPacked(byKey);
        TreeMap<String, StoredResource> tree = new TreeMap<>(sorter.sorted());
        return tree.size() + byKey.size();
    }

    /** As {@link #packedWhileRead}, ending in the one skip list the view keeps, built from the sorted run directly. */
    @Benchmark
    public int packedWhileReadIntoSkipList() {
        ConcurrentHashMap<String, StoredResource> byKey = new ConcurrentHashMap<>(records);
        LoadSorter sorter = loadPacked(byKey);
        ConcurrentSkipListMap<String, StoredResource> sorted = new ConcurrentSkipListMap<>(sorter.sorted());
        return sorted.size() + byKey.size();
    }

    /** Applies the input to {@code byKey} as the view's first catch-up does, packing each key as it is read. */
    private LoadSorter loadPacked(ConcurrentHashMap<String, StoredResource> byKey) {
        LoadSorter sorter = LoadSorter.forRecords(records);
        for (StoredResource r : input) {
            StoredResource previous = byKey.get(r.key());
            String key = previous == null ? r.key() : previous.key();
            byKey.put(key, r);
            sorter.add(key, r);
        }
        return sorter;
    }

    @Benchmark
    public int sortByKeyReference() {
        StoredResource[] all = distinct.clone();
        Arrays.sort(all, Comparator.comparing(StoredResource::key));
        return SortedRun.treeOfSorted(all).size();
    }

    @Benchmark
    public int sortPackedKeys() {
        StoredResource[] all = distinct.clone();
        KeyOrder.sort(all);
        return SortedRun.treeOfSorted(all).size();
    }
}
