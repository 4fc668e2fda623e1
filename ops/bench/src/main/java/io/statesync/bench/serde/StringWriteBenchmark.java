package io.statesync.bench.serde;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The strings of a typical record (two UUIDs, kind, namespace, name, spec keys and values, a condition's reason and
 * message) written the way {@code ValueAwareDatumWriter.writeText} writes them, as their UTF-8 bytes, against the
 * baseline of Avro's {@code BinaryEncoder.writeString(String)}, which copies ASCII text char by char. Both write the
 * same bytes: a string's binary encoding is that of its UTF-8 bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StringWriteBenchmark {

    private String[] strings;
    private BinaryEncoder encoder;

    @Setup
    public void setUp() {
        strings = new String[] {UUID.randomUUID().toString(), UUID.randomUUID().toString(), "WebApp", "default",
            "shop-frontend-42", "image", "nginx:1.21", "replicas", "env", "LOG_LEVEL", "info", "Synced",
            "Observed state matches the desired spec", "True"};
        encoder = EncoderFactory.get().binaryEncoder(OutputStream.nullOutputStream(), null);
    }

    @Benchmark
    public BinaryEncoder avroWriteString() throws IOException {
        for (String s : strings) {
            encoder.writeString(s);
        }
        return encoder;
    }

    @Benchmark
    public BinaryEncoder utf8BytesWritten() throws IOException {
        for (String s : strings) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            encoder.writeBytes(utf8, 0, utf8.length);
        }
        return encoder;
    }
}
