package io.statesync.bench.reconciler;

import io.statesync.reconciler.Differ;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.ReconcilePolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Diffs per second on a 1,000-item list of maps merged by {@code name}, with one item changed: the keyed diff
 * (which also reports the one field) against {@link NaiveDiff} (which, comparing lists whole, reports only that the
 * list differs). A shuffled copy shows the case the naive diff cannot handle: it reports the whole list while the
 * keyed diff reports nothing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class KeyedListDiffBenchmark {
    private static final int ITEMS = 1000;

    private final ReconcilePolicy policy = ReconcilePolicy.builder().listMergeKey("items", "name").build();
    private Object desired;
    private Object observedOneChanged;
    private Object observedShuffled;

    @Setup(Level.Trial)
    public void setUp() {
        desired = Specs.keyedList(ITEMS, -1);
        observedOneChanged = Specs.keyedList(ITEMS, ITEMS / 2);
        List<Object> items = new ArrayList<>((List<?>) ((Map<?, ?>) desired).get("items"));
        Collections.shuffle(items, new Random(1));
        Map<String, Object> shuffled = new LinkedHashMap<>();
        shuffled.put("items", Collections.unmodifiableList(items));
        observedShuffled = Collections.unmodifiableMap(shuffled);
        if (Differ.diff(desired, observedOneChanged, policy).size() != 1
                || !Differ.diff(desired, observedShuffled, policy).isEmpty()) {
            throw new IllegalStateException("fixture is not what the benchmark claims");
        }
    }

    @Benchmark
    public List<FieldDiff> keyedDiffOneChanged() {
        return Differ.diff(desired, observedOneChanged, policy);
    }

    @Benchmark
    public List<String> naiveDiffOneChanged() {
        return NaiveDiff.diff(desired, observedOneChanged);
    }

    @Benchmark
    public List<FieldDiff> keyedDiffShuffled() {
        return Differ.diff(desired, observedShuffled, policy);
    }

    @Benchmark
    public List<String> naiveDiffShuffled() {
        return NaiveDiff.diff(desired, observedShuffled);
    }
}
