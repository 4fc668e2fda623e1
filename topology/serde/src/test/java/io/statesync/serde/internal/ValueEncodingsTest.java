package io.statesync.serde.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

import io.statesync.avro.Value;
import io.statesync.testing.RandomValues;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValueEncodingsTest {

    private final ValueEncodings encodings = ValueEncodings.current();

    @Test
    void shouldWriteTheBytesAvroWritesAndKeepThem() throws IOException {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 200; i++) {
            Value tree = RandomValues.node(random, 4);

            assertThat(written(out -> encodings.writeKeeping(tree, out))).as("tree %s", tree).isEqualTo(avroWritten(tree));
            assertThat(encodings.isKept(tree)).isTrue();
            assertThat(written(out -> encodings.writeKeeping(tree, out))).isEqualTo(avroWritten(tree));
        }
    }

    @Test
    void shouldCopyTheKeptBytesWhenTheSameInstanceIsWrittenAgain() throws IOException {
        Map<String, Value> fields = new HashMap<>(Map.of("replicas", new Value(3L)));
        Value spec = new Value(fields);
        byte[] first = written(out -> encodings.writeKeeping(spec, out));

        // Specs are never changed in place; doing it here shows that the second write is a copy, not an encoding.
        fields.put("replicas", new Value(4L));

        assertThat(written(out -> encodings.writeKeeping(spec, out))).isEqualTo(first);
        assertThat(written(out -> assertThat(encodings.writeKept(spec, out)).isTrue())).isEqualTo(first);
    }

    @Test
    void shouldWriteNothingAndKeepNothingForATreeNotKept() throws IOException {
        Value observed = new Value(Map.of("replicas", new Value(3L)));

        assertThat(written(out -> assertThat(encodings.writeKept(observed, out)).isFalse())).isEmpty();
        assertThat(encodings.isKept(observed)).isFalse();
    }

    @Test
    void shouldTellATreeWithTheKeptSpecsBytesFromOneWithout() throws IOException {
        Value spec = new Value(ordered("image", new Value("nginx:1.27"), "replicas", new Value(3L)));
        Value same = new Value(ordered("image", new Value("nginx:1.27"), "replicas", new Value(3L)));
        Value drifted = new Value(ordered("image", new Value("nginx:1.27"), "replicas", new Value(4L)));
        Value reordered = new Value(ordered("replicas", new Value(3L), "image", new Value("nginx:1.27")));

        assertThat(encodings.encodesAs(spec, same)).as("nothing kept yet").isFalse();
        written(out -> encodings.writeKeeping(spec, out));

        assertThat(encodings.encodesAs(spec, same)).isTrue();
        assertThat(encodings.encodesAs(spec, drifted)).isFalse();
        assertThat(encodings.encodesAs(spec, reordered)).as("equal in value, not in bytes: the caller walks the trees").isFalse();
    }

    @Test
    void shouldNotKeepASpecLargerThanTheLimit() throws IOException {
        Value large = new Value("x".repeat(ValueEncodings.KEEP_LIMIT + 1));

        assertThat(written(out -> encodings.writeKeeping(large, out))).isEqualTo(avroWritten(large));
        assertThat(encodings.isKept(large)).isFalse();
        Value small = new Value("y");
        assertThat(written(out -> encodings.writeKeeping(small, out))).isEqualTo(avroWritten(small));
    }

    @Test
    void shouldKeepNoMoreBytesThanItsBudget() throws IOException {
        String text = "x".repeat(ValueEncodings.KEEP_LIMIT - 16);
        List<Value> specs = new ArrayList<>();
        for (int i = 0; i < 2 * ValueEncodings.BUDGET / ValueEncodings.KEEP_LIMIT; i++) {
            Value spec = new Value(text + i);
            specs.add(spec);
            assertThat(written(out -> encodings.writeKeeping(spec, out))).isEqualTo(avroWritten(spec));
            assertThat(encodings.keptBytes()).isLessThanOrEqualTo(ValueEncodings.BUDGET);
        }

        assertThat(encodings.isKept(specs.get(specs.size() - 1))).isTrue();
        assertThat(encodings.isKept(specs.get(0))).as("dropped when the budget ran out").isFalse();
    }

    @Test
    void shouldKeepEncodingsToTheThreadThatWroteThem() throws Exception {
        Value spec = new Value(Map.of("replicas", new Value(3L)));
        written(out -> encodings.writeKeeping(spec, out));

        boolean keptElsewhere = CompletableFuture.supplyAsync(() -> ValueEncodings.current().isKept(spec)).get();

        assertThat(keptElsewhere).isFalse();
        assertThat(encodings.isKept(spec)).isTrue();
    }

    @Test
    void shouldFindTheSpecsOfManyKeysWrittenInARow() throws IOException {
        List<Value> specs = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            Value spec = new Value(Map.of("replicas", new Value((long) i)));
            specs.add(spec);
            written(out -> encodings.writeKeeping(spec, out));
        }
        long kept = specs.stream().filter(encodings::isKept).count();

        // Direct-mapped: a few collide, most of a thread's last thousand specs are kept.
        assertThat(kept).isGreaterThan(900);
    }

    @Test
    void shouldRefuseATreeAvroRefusesAndWriteTheNextOneCleanly() throws IOException {
        Value bad = new Value(Map.of("replicas", new Value(3)));

        assertThatThrownBy(() -> written(out -> encodings.writeKeeping(bad, out))).isInstanceOf(RuntimeException.class);
        Value good = new Value(Map.of("replicas", new Value(3L)));
        assertThat(written(out -> encodings.writeKeeping(good, out))).isEqualTo(avroWritten(good));
    }

    private static Map<String, Value> ordered(String k1, Value v1, String k2, Value v2) {
        Map<String, Value> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    private interface Write {
        void to(BinaryEncoder out) throws IOException;
    }

    private static byte[] written(Write write) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(bytes, null);
        write.to(enc);
        enc.flush();
        return bytes.toByteArray();
    }

    private static byte[] avroWritten(Value v) throws IOException {
        return written(out -> new SpecificDatumWriter<>(Value.class).write(v, out));
    }
}
