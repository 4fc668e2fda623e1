package io.statesync.bench.serde;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.statesync.serde.RecentStringDecoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding the strings of one latency-suite state (spec keys and values, identity, reporter, condition words) through
 * the thread's table of recent strings ({@link RecentStringDecoder}), against a new {@code String} each, as Avro
 * decodes them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RecentStringsBenchmark {

    private static final List<String> STRINGS = List.of("WebApp", "bench", "app-12345", "image", "nginx:1.21", "replicas",
        "port", "env", "ENV", "production", "LOG_LEVEL", "info", "containers", "name", "web", "memory", "256Mi", "seq",
        "bench", "Ready", "True", "Synced", "Progressing", "False");

    private final byte[][] encoded = STRINGS.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
    private final RecentStringDecoder recent = new RecentStringDecoder();

    @Benchmark
    public void recent(Blackhole bh) {
        for (byte[] b : encoded) {
            bh.consume(recent.decode(b, b.length));
        }
    }

    @Benchmark
    public void newStrings(Blackhole bh) {
        for (byte[] b : encoded) {
            bh.consume(new String(b, 0, b.length, StandardCharsets.UTF_8));
        }
    }
}
