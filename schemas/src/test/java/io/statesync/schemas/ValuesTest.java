package io.statesync.schemas;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BinaryNode;
import io.statesync.avro.Value;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValuesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void shouldKeepLongBeyondDoublePrecisionExactThroughJsonText() throws IOException {
        long big = (1L << 53) + 1;

        Object back = Values.toJava(Values.fromJson(MAPPER.readTree(MAPPER.writeValueAsString(
            Values.toJson(Values.fromJava(big))))));

        assertThat(back).isEqualTo(big);
    }

    @Test
    void shouldKeepIntegralDoubleAsDoubleThroughJsonText() throws IOException {
        String text = MAPPER.writeValueAsString(Values.toJson(Values.fromJava(5.0)));

        assertThat(text).isEqualTo("5.0");
        assertThat(Values.toJava(Values.fromJson(MAPPER.readTree(text)))).isEqualTo(5.0d);
    }

    @Test
    void shouldReadJsonIntegerBeyondLongRangeAsDouble() throws IOException {
        Value v = Values.fromJson(MAPPER.readTree("123456789012345678901234567890"));

        assertThat(v.getValue()).isEqualTo(1.2345678901234568E29);
    }

    @Test
    void shouldTreatRecordHoldingNullAndNullReferenceAsJsonNull() {
        assertThat(Values.toJson(new Value(null)).isNull()).isTrue();
        assertThat(Values.toJson(null).isNull()).isTrue();
        assertThat(Values.fromJson(MAPPER.nullNode()).getValue()).isNull();
        assertThat(Values.fromJson(MAPPER.missingNode()).getValue()).isNull();
        assertThat(Values.toJava(new Value(null))).isNull();
    }

    @Test
    void shouldWidenSmallIntegersToLongAndFloatToDouble() {
        assertThat(Values.fromJava(7).getValue()).isEqualTo(7L);
        assertThat(Values.fromJava((short) 7).getValue()).isEqualTo(7L);
        assertThat(Values.fromJava((byte) 7).getValue()).isEqualTo(7L);
        assertThat(Values.fromJava(1.5f).getValue()).isEqualTo(1.5d);
    }

    @Test
    void shouldTurnBigIntegerIntoLongWhenItFitsAndDoubleOtherwise() {
        assertThat(Values.fromJava(BigInteger.valueOf(Long.MIN_VALUE)).getValue()).isEqualTo(Long.MIN_VALUE);
        assertThat(Values.fromJava(BigInteger.ONE.shiftLeft(64)).getValue()).isEqualTo(0x1p64);
        assertThat(Values.fromJava(new BigDecimal("2.50")).getValue()).isEqualTo(2.5d);
    }

    @Test
    void shouldRejectNumbersBeyondDoubleRange() {
        assertThatThrownBy(() -> Values.fromJava(BigInteger.TEN.pow(400)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("double range");
    }

    @Test
    void shouldRejectUnknownTypesNamingTheType() {
        assertThatThrownBy(() -> Values.fromJava(List.of(new java.util.Date(0))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.util.Date");
    }

    @Test
    void shouldRejectMapKeysThatAreNotStrings() {
        assertThatThrownBy(() -> Values.fromJava(Map.of(1, "one")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.Integer");
    }

    @Test
    void shouldRejectBinaryJsonNodes() {
        assertThatThrownBy(() -> Values.fromJson(BinaryNode.valueOf(new byte[] {1})))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BINARY");
    }

    @Test
    void shouldKeepMapInsertionOrder() {
        Map<String, Object> tree = new LinkedHashMap<>();
        for (String k : List.of("zeta", "alpha", "mid", "beta")) {
            tree.put(k, k.length());
        }

        Value v = Values.fromJava(tree);

        assertThat(((Map<?, ?>) Values.toJava(v)).keySet().stream().map(String::valueOf)).containsExactly("zeta", "alpha", "mid", "beta");
        assertThat(Values.toJson(v).fieldNames()).toIterable().containsExactly("zeta", "alpha", "mid", "beta");
    }

    @Test
    void shouldRoundTripUnicodeKeysAndValuesThroughAvroBinaryAndJsonText() throws IOException {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("emoji 😀", "🚀 ünïcödé 日本語");
        tree.put("nul\u0000", "tab\tquote\"backslash\\");
        tree.put("list", Arrays.asList("ß", null, true, -0.0, Long.MAX_VALUE));

        Value v = Values.fromJava(tree);

        assertThat(Values.toJava(avroRoundTrip(v))).isEqualTo(tree);
        assertThat(Values.toJava(Values.fromJson(MAPPER.readTree(MAPPER.writeValueAsString(Values.toJson(v))))))
            .isEqualTo(tree);
    }

    @Test
    void shouldReadStringsDecodedAsUtf8() {
        Map<Object, Value> map = new LinkedHashMap<>();
        map.put(new Utf8("k"), new Value(new Utf8("v")));

        assertThat(Values.toJava(new Value(map))).isEqualTo(Map.of("k", "v"));
    }

    @Test
    void shouldNormaliseHandBuiltIntegerInsideValue() {
        List<Value> items = new ArrayList<>();
        items.add(new Value(3));

        assertThat(Values.toJava(new Value(items))).isEqualTo(List.of(3L));
        assertThat(Values.toJson(new Value(items)).get(0).isLong()).isTrue();
    }

    @Test
    void shouldTakeJsonNodeInsideJavaTree() throws IOException {
        JsonNode node = MAPPER.readTree("{\"a\":[1,2.5]}");

        assertThat(Values.toJava(Values.fromJava(Map.of("n", node))))
            .isEqualTo(Map.of("n", Map.of("a", List.of(1L, 2.5d))));
    }


    @Test
    void shouldFindTreesSameWhoseMapsIterateInAnotherOrder() {
        Map<String, Object> forward = new LinkedHashMap<>();
        forward.put("image", "nginx");
        forward.put("env", Map.of("A", 1L));
        Map<String, Object> backward = new LinkedHashMap<>();
        backward.put("env", Map.of("A", 1L));
        backward.put("image", "nginx");

        assertThat(Values.sameTree(Values.fromJava(forward), Values.fromJava(backward))).isTrue();
    }

    @Test
    void shouldNotFindTreesSameThatEqualsTellsApart() {
        assertThat(Values.sameTree(Values.fromJava(Map.of("replicas", 5L)), Values.fromJava(Map.of("replicas", 5.0))))
            .isFalse();
        assertThat(Values.sameTree(new Value(new Utf8("a")), new Value("a"))).isFalse();
        assertThat(Values.sameTree(Values.fromJava(List.of(1L, 2L)), Values.fromJava(List.of(1L)))).isFalse();
        assertThat(Values.sameTree(null, new Value(null))).isFalse();
    }

    static Value avroRoundTrip(Value v) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<>(Value.class).write(v, enc);
        enc.flush();
        return new SpecificDatumReader<>(Value.class).read(null,
            DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
    }
}
