package io.statesync.schemas;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.Value;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import static org.assertj.core.api.Assertions.assertThat;

class ValuesPropertiesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Property(tries = 500)
    void javaTreeSurvivesValueAndBack(@ForAll("trees") Object tree) {
        assertThat(Values.toJava(Values.fromJava(tree))).isEqualTo(tree);
    }

    @Property(tries = 500)
    void valueSurvivesJsonNodeAndBack(@ForAll("trees") Object tree) {
        var v = Values.fromJava(tree);

        assertThat(Values.fromJson(Values.toJson(v))).isEqualTo(v);
    }

    @Property(tries = 500)
    void finiteTreeSurvivesJsonText(@ForAll("finiteTrees") Object tree) throws IOException {
        String text = MAPPER.writeValueAsString(Values.toJson(Values.fromJava(tree)));

        assertThat(Values.toJava(Values.fromJson(MAPPER.readTree(text)))).isEqualTo(tree);
    }

    @Property(tries = 500)
    void treeSurvivesAvroBinary(@ForAll("trees") Object tree) throws IOException {
        assertThat(Values.toJava(ValuesTest.avroRoundTrip(Values.fromJava(tree)))).isEqualTo(tree);
    }

    @Property(tries = 500)
    void sameTreeHoldsForTwoDecodingsOfOneTree(@ForAll("trees") Object tree) throws IOException {
        Value decoded = ValuesTest.avroRoundTrip(Values.fromJava(tree));
        Value again = ValuesTest.avroRoundTrip(Values.fromJava(tree));

        assertThat(Values.sameTree(decoded, again)).isEqualTo(decoded.equals(again)).isTrue();
    }

    @Property(tries = 1000)
    void sameTreeAgreesWithEquals(@ForAll("trees") Object left, @ForAll("trees") Object right) {
        Value a = Values.fromJava(left);
        Value b = Values.fromJava(right);

        assertThat(Values.sameTree(a, b)).isEqualTo(a.equals(b));
    }

    @Property(tries = 500)
    void sameTreeSeesOneChangedLeaf(@ForAll("trees") Object tree) {
        Value a = Values.fromJava(Arrays.asList(tree, "same"));
        Value b = Values.fromJava(Arrays.asList(tree, "other"));

        assertThat(Values.sameTree(a, b)).isFalse();
    }

    @Provide
    Arbitrary<Object> trees() {
        return tree(4, doubles(true));
    }

    @Provide
    Arbitrary<Object> finiteTrees() {
        return tree(4, doubles(false));
    }

    private static Arbitrary<Object> tree(int depth, Arbitrary<Double> doubles) {
        Arbitrary<Object> leaf = Arbitraries.<Object>oneOf(
            Arbitraries.of(true, false),
            Arbitraries.longs().edgeCases(c -> c.add((1L << 53) + 1)),
            doubles,
            strings()).injectNull(0.1);
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<Object> child = tree(depth - 1, doubles);
        Arbitrary<Object> list = child.list().ofMaxSize(4).map(l -> (Object) new ArrayList<>(l));
        Arbitrary<Object> map = Arbitraries.maps(strings(), child).ofMaxSize(4)
            .map(m -> (Object) new LinkedHashMap<>(m));
        return Arbitraries.frequencyOf(Tuple.of(4, leaf), Tuple.of(1, list), Tuple.of(1, map));
    }

    private static Arbitrary<Double> doubles(boolean nonFinite) {
        Arbitrary<Double> d = Arbitraries.oneOf(
            Arbitraries.doubles().ofScale(4)
                .withSpecialValue(-0.0).withSpecialValue(Double.MIN_VALUE).withSpecialValue(Double.MAX_VALUE),
            // Raw bit patterns reach every exponent, subnormals included.
            Arbitraries.longs().map(Double::longBitsToDouble));
        return nonFinite ? d : d.filter(Double::isFinite);
    }

    private static Arbitrary<String> strings() {
        Arbitrary<String> plain = Arbitraries.strings()
            .withCharRange('\u0000', '\uD7FF').withCharRange('\uE000', '\uFFFD').ofMaxLength(12);
        return Arbitraries.oneOf(plain, Arbitraries.of("😀", "日本語", "ñandú", "", "\u0000", "{\"looks\": \"like json\"}"));
    }
}
