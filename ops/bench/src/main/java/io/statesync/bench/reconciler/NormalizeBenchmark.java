package io.statesync.bench.reconciler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.statesync.reconciler.CompactMap;
import io.statesync.reconciler.ObservedView;
import io.statesync.reconciler.Trees;
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
 * What the reconciler's records pay to normalise a tree handed to them on every reconcile ({@code ObservedView},
 * {@code PlanInput}): {@code walked} is a tree of unmodifiable java.util maps and lists, which {@link Trees#normalize}
 * checks with a walk, {@code built} the same tree from {@link Trees#mapBuilder} and {@link Trees#listBuilder}, whose
 * type says it is normalised (how {@code FrozenTrees} builds them); {@code rebuilt} is what building such a tree costs.
 * Specs: the latency suite's (7 leaves) and a 50-field one. Run: {@code java -cp
 * 'target/lib/*:target/statesync-bench-*.jar' org.openjdk.jmh.Main 'reconciler.NormalizeBenchmark'}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class NormalizeBenchmark {
    @Param({"latency", "fifty"})
    public String spec;

    private Object walked;
    private Object built;
    private Object compact;
    private final Instant at = Instant.parse("2026-01-01T00:00:00Z");

    @Setup(Level.Trial)
    public void setUp() {
        walked = spec.equals("latency") ? latencySpec() : Specs.fiftyFields(0);
        built = rebuild(walked);
        compact = toCompact(walked);
        if (!built.equals(walked) || !fromCompact(compact).equals(walked)) {
            throw new IllegalStateException("the rebuilt tree differs");
        }
    }

    @Benchmark
    public ObservedView walked() {
        return ObservedView.present(walked, 3, at, null);
    }

    @Benchmark
    public ObservedView built() {
        return ObservedView.present(built, 3, at, null);
    }

    /** Building the normalised tree itself with the builders, as {@code FrozenTrees} does for every converted spec. */
    @Benchmark
    public Object rebuilt() {
        return rebuild(walked);
    }

    /**
     * The same tree built from {@code CompactMap}s with {@link Trees#mapOf}, which skips the builder's repeat-key
     * check, as {@code FrozenTrees} converts a decoded spec.
     */
    @Benchmark
    public Object rebuiltFromCompact() {
        return fromCompact(compact);
    }

    /** The spec of {@code Workload.spec}, as the latency suite writes it, in unmodifiable java.util maps and lists. */
    private static Object latencySpec() {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("ENV", "production");
        env.put("LOG_LEVEL", "info");
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", "web");
        container.put("memory", "256Mi");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("image", "nginx:1.7");
        spec.put("replicas", 3L);
        spec.put("port", 8080L);
        spec.put("env", Collections.unmodifiableMap(env));
        spec.put("containers", Collections.unmodifiableList(new ArrayList<>(List.of(Collections.unmodifiableMap(container)))));
        return Collections.unmodifiableMap(spec);
    }

    private static Object toCompact(Object tree) {
        if (tree instanceof Map<?, ?> map) {
            CompactMap.Builder<String, Object> b = CompactMap.builder(map.size());
            map.forEach((k, v) -> b.put((String) k, toCompact(v)));
            return b.build();
        }
        if (tree instanceof List<?> list) {
            return list.stream().map(NormalizeBenchmark::toCompact).toList();
        }
        return tree;
    }

    private static Object fromCompact(Object node) {
        if (node instanceof CompactMap<?, ?> map) {
            return Trees.mapOf(map, NormalizeBenchmark::fromCompact);
        }
        if (node instanceof List<?> list) {
            Trees.ListBuilder b = Trees.listBuilder(list.size());
            list.forEach(item -> b.add(fromCompact(item)));
            return b.build();
        }
        return node;
    }

    private static Object rebuild(Object tree) {
        if (tree instanceof Map<?, ?> map) {
            Trees.MapBuilder b = Trees.mapBuilder(map.size());
            map.forEach((k, v) -> b.put((String) k, rebuild(v)));
            return b.build();
        }
        if (tree instanceof List<?> list) {
            Trees.ListBuilder b = Trees.listBuilder(list.size());
            list.forEach(item -> b.add(rebuild(item)));
            return b.build();
        }
        return tree;
    }
}
