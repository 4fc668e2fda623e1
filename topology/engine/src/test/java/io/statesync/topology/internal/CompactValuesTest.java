package io.statesync.topology.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.statesync.avro.Value;
import io.statesync.reconciler.CompactMap;
import io.statesync.schemas.Values;
import io.statesync.serde.internal.ClassResolvedUnionData;
import io.statesync.serde.internal.ValueAwareDatumWriter;
import io.statesync.testing.RandomValues;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CompactValuesTest {

    @Test
    void shouldReplaceEveryDecodedMapWithoutChangingTheTreeOrItsBytes() throws IOException {
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 300; i++) {
            byte[] bytes = avroWritten(RandomValues.node(random, 5));
            Value decoded = read(bytes);
            Value compacted = read(bytes);

            assertThat(CompactValues.compactWithin(compacted, 64)).isTrue();

            assertThat(hashMaps(compacted)).as("tree %s", decoded).isZero();
            assertThat(Values.sameTree(compacted, decoded)).as("tree %s", decoded).isTrue();
            assertThat(FrozenTrees.of(compacted)).isEqualTo(FrozenTrees.of(decoded));
            // Avro's reader hashes the entries: the compact copy keeps the order the decoded map iterates in.
            assertThat(handWritten(compacted)).as("tree %s", decoded).isEqualTo(avroWritten(decoded));
        }
    }

    @Test
    void shouldSayATreeDeeperThanTheLimitDoesNotFit() {
        Value chain = InputDecoderDepthTest.chain(9);

        assertThat(CompactValues.compactWithin(chain, 9)).isTrue();
        assertThat(CompactValues.compactWithin(chain, 8)).isFalse();
        assertThat(CompactValues.compactWithin(null, 0)).isTrue();
    }

    private static int hashMaps(Value node) {
        Object v = node.getValue();
        if (v instanceof List<?> items) {
            return items.stream().mapToInt(item -> hashMaps((Value) item)).sum();
        }
        if (v instanceof Map<?, ?> entries) {
            int own = entries instanceof CompactMap<?, ?> ? 0 : 1;
            return own + entries.values().stream().mapToInt(child -> hashMaps((Value) child)).sum();
        }
        return 0;
    }

    private static Value read(byte[] bytes) throws IOException {
        return new SpecificDatumReader<>(Value.class).read(null, DecoderFactory.get().binaryDecoder(bytes, null));
    }

    private static byte[] handWritten(Value v) throws IOException {
        return write(new ValueAwareDatumWriter<>(Value.getClassSchema(), ClassResolvedUnionData.forClass(Value.class)), v);
    }

    private static byte[] avroWritten(Value v) throws IOException {
        return write(new SpecificDatumWriter<>(Value.getClassSchema()), v);
    }

    private static byte[] write(DatumWriter<Value> writer, Value v) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        writer.write(v, enc);
        enc.flush();
        return out.toByteArray();
    }
}
