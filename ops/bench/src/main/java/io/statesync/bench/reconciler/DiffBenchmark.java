package io.statesync.bench.reconciler;

import io.statesync.reconciler.Differ;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.ThreeWayMerge;
import io.statesync.reconciler.MergeResult;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Diffs per second of the reconciler's field-level diff against {@link NaiveDiff}, on a 50-field spec with 0, 1 and
 * 10 differences. Run: {@code java -cp 'target/lib/*:target/statesync-bench-*.jar' org.openjdk.jmh.Main
 * 'reconciler.DiffBenchmark' -wi 2 -i 3 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class DiffBenchmark {
    @Param({"0", "1", "10"})
    public int differences;

    private Object desired;
    private Object observed;
    private final ReconcilePolicy policy = ReconcilePolicy.defaults();

    @Setup(Level.Trial)
    public void setUp() {
        desired = Specs.fiftyFields(0);
        observed = Specs.fiftyFields(differences);
        int found = Differ.diff(desired, observed, policy).size();
        if (found != differences || NaiveDiff.diff(desired, observed).size() != differences) {
            throw new IllegalStateException("fixture has " + found + " differences, wanted " + differences);
        }
    }

    @Benchmark
    public List<FieldDiff> reconcilerDiff() {
        return Differ.diff(desired, observed, policy);
    }

    @Benchmark
    public List<String> naiveDiff() {
        return NaiveDiff.diff(desired, observed);
    }

    /** What planning pays on top of a diff: the three-way merge that builds the target and the patch. */
    @Benchmark
    public MergeResult reconcilerMerge() {
        return ThreeWayMerge.merge(desired, observed, desired, policy);
    }
}
