package io.statesync.bench.reconciler;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.statesync.reconciler.ConditionView;
import io.statesync.reconciler.CorrectionPlanner;
import io.statesync.reconciler.Decision;
import io.statesync.reconciler.HealthCalculator;
import io.statesync.reconciler.HealthInput;
import io.statesync.reconciler.HealthRule;
import io.statesync.reconciler.HealthRules;
import io.statesync.reconciler.HealthStatus;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What judging health adds to a reconcile's decision, on the in-sync 50-field spec of {@link PlanAndStatusBenchmark}:
 * {@code planAndStatus} is the baseline (plan and status with one merge, as {@code ReconcileStep} does),
 * {@code withReadyCondition} adds the health of a kind without rules (the agent's Ready condition), and
 * {@code withThreeRules} the health of a kind with three CEL rules (the last one matching). Run:
 * {@code java -cp 'target/lib/*:target/statesync-bench-*.jar' org.openjdk.jmh.Main 'reconciler.HealthBenchmark'}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HealthBenchmark {

    private final CorrectionPlanner planner = new CorrectionPlanner(new SplittableRandom(1));
    private PlanInput in;
    private Instant now;
    private HealthInput health;
    private HealthRules rules;

    @Setup(Level.Trial)
    public void setUp() {
        now = Instant.parse("2026-01-01T00:00:00Z");
        Object desired = Specs.fiftyFields(0);
        ObservedView observed = ObservedView.present(Specs.fiftyFields(0), 2, now, null);
        in = PlanInput.builder().key("WebApp/bench/app-1").uid("uid-1").generation(2).desiredSpec(desired)
            .observed(observed).lastApplied(desired).now(now).policy(ReconcilePolicy.defaults()).build();
        Map<String, Object> variables = Map.of("desired", desired,
            "observed", Map.of("state", desired, "status", Map.of("replicas", 3L, "readyReplicas", 3L, "crashLooping", 0L),
                "conditions", List.of()),
            "resource", Map.of("kind", "WebApp", "namespace", "bench", "name", "app-1", "generation", 2L));
        health = new HealthInput(observed, List.of(new ConditionView("Ready", "True", "PodsReady", "", now)), () -> variables);
        rules = HealthRules.compile(List.of(
            new HealthRule(HealthStatus.Degraded, "observed.status.crashLooping > 0", "crash-looping"),
            new HealthRule(HealthStatus.Progressing, "observed.status.readyReplicas < observed.status.replicas", "starting"),
            new HealthRule(HealthStatus.Healthy, "true", "ready")));
    }

    private StatusView status() {
        MergeResult merge = CorrectionPlanner.merge(in);
        Decision decision = planner.plan(in, merge);
        return StatusCalculator.compute(null, in, decision, merge);
    }

    @Benchmark
    public StatusView planAndStatus() {
        return status();
    }

    @Benchmark
    public StatusView withReadyCondition() {
        StatusView next = status();
        return HealthCalculator.withHealth(null, next, HealthCalculator.compute(null, health, HealthRules.none(), now));
    }

    @Benchmark
    public StatusView withThreeRules() {
        StatusView next = status();
        return HealthCalculator.withHealth(null, next, HealthCalculator.compute(null, health, rules, now));
    }
}
