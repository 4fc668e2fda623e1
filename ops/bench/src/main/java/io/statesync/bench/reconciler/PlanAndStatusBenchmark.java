package io.statesync.bench.reconciler;

import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.statesync.reconciler.CorrectionPlanner;
import io.statesync.reconciler.Decision;
import io.statesync.reconciler.MergeResult;
import io.statesync.reconciler.ObservedView;
import io.statesync.reconciler.PlanInput;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.StatusCalculator;
import io.statesync.reconciler.StatusView;
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
 * What a reconcile pays to plan and to compute the status, on a 50-field spec observed with 0, 1 and 10 differences
 * at the current generation: {@code separateMerges} lets the planner and the status each run the three-way merge (the
 * baseline), {@code sharedMerge} runs it once ({@link CorrectionPlanner#merge}) and hands it to both, as
 * {@code ReconcileStep} does. Run: {@code java -cp 'target/lib/*:target/statesync-bench-*.jar'
 * org.openjdk.jmh.Main 'reconciler.PlanAndStatusBenchmark'}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PlanAndStatusBenchmark {
    @Param({"0", "1", "10"})
    public int differences;

    private final CorrectionPlanner planner = new CorrectionPlanner(new SplittableRandom(1));
    private PlanInput in;

    @Setup(Level.Trial)
    public void setUp() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        Object desired = Specs.fiftyFields(0);
        in = PlanInput.builder().key("WebApp/bench/app-1").uid("uid-1").generation(2).desiredSpec(desired)
            .observed(ObservedView.present(Specs.fiftyFields(differences), 2, now, null)).lastApplied(desired)
            .now(now).policy(ReconcilePolicy.defaults()).build();
    }

    @Benchmark
    public StatusView separateMerges() {
        Decision decision = planner.plan(in);
        return StatusCalculator.compute(null, in, decision);
    }

    @Benchmark
    public StatusView sharedMerge() {
        MergeResult merge = CorrectionPlanner.merge(in);
        Decision decision = planner.plan(in, merge);
        return StatusCalculator.compute(null, in, decision, merge);
    }
}
