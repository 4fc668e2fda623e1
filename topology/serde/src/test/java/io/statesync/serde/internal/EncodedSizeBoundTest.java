package io.statesync.serde.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.statesync.avro.DesiredState;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.Value;
import io.statesync.reconciler.CompactMap;
import io.statesync.testing.RandomValues;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EncodedSizeBoundTest {

    @Test
    void shouldNeverBeBelowTheBytesAvroWritesNorAboveThreeTimesThemForRandomRecordsOfEveryTopic() throws IOException {
        SplittableRandom random = new SplittableRandom(31);
        for (int i = 0; i < 300; i++) {
            assertBounded(RecordEncodersTest.randomResource(random));
            assertBounded(RecordEncodersTest.randomCorrection(random));
            assertBounded(RecordEncodersTest.randomObservation(random));
            assertBounded(RecordEncodersTest.randomState(random));
            assertBounded(randomDesired(random));
        }
    }

    @Test
    void shouldBeExactForATreeWhoseTextIsAllUtf8() throws IOException {
        SplittableRandom random = new SplittableRandom(37);
        for (int i = 0; i < 200; i++) {
            Value tree = utf8Text(RandomValues.node(random, 5));
            assertThat(EncodedSizeBound.record(Value.getClassSchema(), tree)).as("%s", tree).isEqualTo(encoded(tree));
            Value compact = compacted(tree);
            assertThat(EncodedSizeBound.record(Value.getClassSchema(), compact)).isEqualTo(encoded(compact));
        }
    }

    @Test
    void shouldCountAStringAtThreeBytesPerChar() throws IOException {
        for (String s : List.of("", "ascii", "\u00e9\u4e2d", "\ud83d\ude00", "\ud800")) {
            Value text = new Value(s);
            long chars = s.length();
            long bytes = s.getBytes(StandardCharsets.UTF_8).length;
            assertThat(EncodedSizeBound.record(Value.getClassSchema(), text)).as(s)
                .isEqualTo(1 + EncodedSizeBound.varint(3 * chars) + 3 * chars)
                .isGreaterThanOrEqualTo(encoded(text)).isEqualTo(encoded(text) + (3 * chars - bytes) + (EncodedSizeBound.varint(3 * chars) - EncodedSizeBound.varint(bytes)));
        }
    }

    @Property
    void shouldSizeEveryLongAsItsZigZagVarint(@ForAll long n) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        encoder.writeLong(n);
        encoder.flush();

        assertThat(EncodedSizeBound.varint(n)).isEqualTo(out.size());
    }

    @Test
    void shouldRefuseToSizeAValueTreeWithAChildThatIsNotAValue() {
        Value tree = new Value(List.of("not a Value"));
        DesiredState d = randomDesired(new SplittableRandom(41));
        d.setSpec(tree);

        assertThatThrownBy(() -> EncodedSizeBound.record(d.getSchema(), d)).isInstanceOf(EncodedSizeBound.Unsized.class);
    }

    static DesiredState randomDesired(SplittableRandom random) {
        List<OwnerReference> owners = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            owners.add(OwnerReference.newBuilder().setApiVersion("statesync.io/v1").setKind("Owner").setName("o-" + i)
                .setUid("u-" + random.nextInt()).setController(random.nextBoolean()).setBlockOwnerDeletion(random.nextBoolean()).build());
        }
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            labels.put("l" + i, "v-\u00e9" + random.nextInt());
        }
        return DesiredState.newBuilder().setKind("WebApp").setNamespace("ns-" + random.nextInt(9)).setName("n-" + random.nextInt())
            .setLabels(labels).setSpec(RandomValues.node(random, 4)).setOwnerReferences(owners)
            .setExpectedResourceVersion(random.nextBoolean() ? null : Integer.toString(random.nextInt(1 << 20)))
            .setFieldManager(random.nextBoolean() ? null : "kubectl").setForce(random.nextBoolean())
            .setCreateOnly(random.nextBoolean()).build();
    }

    private static Value compacted(Value node) {
        Object v = node.getValue();
        if (v instanceof Map<?, ?> entries) {
            Map<CharSequence, Value> copy = new LinkedHashMap<>();
            entries.forEach((k, c) -> copy.put((CharSequence) k, compacted((Value) c)));
            return new Value(CompactMap.copyOf(copy));
        }
        if (v instanceof List<?> items) {
            return new Value(items.stream().map(c -> compacted((Value) c)).toList());
        }
        return node;
    }

    private static Value utf8Text(Value node) {
        Object v = node.getValue();
        if (v instanceof Map<?, ?> entries) {
            Map<CharSequence, Value> copy = new LinkedHashMap<>();
            entries.forEach((k, c) -> copy.put(new Utf8(k.toString()), utf8Text((Value) c)));
            return new Value(copy);
        }
        if (v instanceof List<?> items) {
            return new Value(items.stream().map(c -> utf8Text((Value) c)).toList());
        }
        return v instanceof CharSequence s ? new Value(new Utf8(s.toString())) : node;
    }

    private static void assertBounded(SpecificRecord record) throws IOException {
        long exact = encoded(record);
        assertThat(EncodedSizeBound.record(record.getSchema(), record)).as("%s", record)
            .isGreaterThanOrEqualTo(exact).isLessThanOrEqualTo(3 * exact);
    }

    @SuppressWarnings("unchecked")
    private static <T extends SpecificRecord> long encoded(T record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<T>((Class<T>) record.getClass()).write(record, encoder);
        encoder.flush();
        return out.size();
    }
}
