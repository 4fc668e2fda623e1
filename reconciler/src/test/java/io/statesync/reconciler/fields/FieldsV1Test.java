package io.statesync.reconciler.fields;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FieldsV1Test {
    private static PathElement f(String name) {
        return new PathElement.Field(name);
    }

    private static PathElement k(String field, Object value) {
        return new PathElement.Key(Map.of(field, value));
    }

    private static PathElement v(Object value) {
        return new PathElement.Value(value);
    }

    @Test
    void shouldWriteTheConfigMapOfTheKubernetesDocsWithFieldsSorted() {
        FieldSet set = FieldSet.of(List.of(List.of(f("metadata"), f("labels"), f("test-label")),
                List.of(f("data"), f("key"))));
        assertThat(FieldsV1.encode(set)).isEqualTo("{\"f:data\":{\"f:key\":{}},\"f:metadata\":{\"f:labels\":{\"f:test-label\":{}}}}");
    }

    @Test
    void shouldMarkAMemberThatAlsoHasChildrenWithADotEntryFirst() {
        // A map that an Update added is owned itself (".") and through each of its keys.
        FieldSet set = FieldSet.of(List.of(List.of(f("metadata"), f("labels")),
                List.of(f("metadata"), f("labels"), f("app"))));
        assertThat(FieldsV1.encode(set)).isEqualTo("{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}}}");
    }

    @Test
    void shouldWriteMapListKeysAndSetValuesAsEscapedJsonInsideTheKey() {
        PathElement port = new PathElement.Key(Map.of("protocol", "TCP", "containerPort", 80L));
        FieldSet set = FieldSet.of(List.of(
                List.of(f("spec"), f("containers"), k("name", "nginx")),
                List.of(f("spec"), f("containers"), k("name", "nginx"), f("image")),
                List.of(f("spec"), f("containers"), k("name", "nginx"), f("ports"), port),
                List.of(f("spec"), f("containers"), k("name", "nginx"), f("ports"), port, f("containerPort")),
                List.of(f("metadata"), f("finalizers"), v("example.com/foo"))));
        assertThat(FieldsV1.encode(set)).isEqualTo("{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"example.com/foo\\\"\":{}}},"
                + "\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:image\":{},"
                + "\"f:ports\":{\"k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},\"f:containerPort\":{}}}}}}}");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"f:aaa\":{},\"f:aab\":{},\"f:aac\":{},\"f:aad\":{},\"f:aae\":{},\"f:aaf\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{},\"k:{\\\"name\\\":\\\"second\\\"}\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{},\"v:1\":{},\"v:2\":{},\"v:3\":{},\"v:\\\"aa\\\"\":{},\"v:\\\"ab\\\"\":{},\"v:true\":{},\"i:1\":{},\"i:2\":{},\"i:3\":{},\"i:4\":{}}",
        "{\"f:aaa\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{\"v:3\":{\"f:aab\":{}}},\"v:3\":{},\"v:true\":{}},\"f:aab\":{\"f:aaa\":{},\"f:aaf\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{}}},\"k:{\\\"name\\\":\\\"first\\\"}\":{}},\"v:\\\"ab\\\"\":{\"f:aaf\":{\"i:4\":{}},\"v:1\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{}},\"i:1\":{\"f:aae\":{\"i:4\":{}}}},\"i:3\":{\"f:aab\":{\"v:true\":{\"v:\\\"aa\\\"\":{}}},\"f:aaf\":{},\"i:1\":{}}}",
        "{\"f:spec\":{\".\":{},\"f:apps\":{\".\":{},\"k:{\\\"name\\\":\\\" app-💻\\\"}\":{\".\":{},\"f:container\":{\".\":{},\"f:image\":{},\"f:name\":{},\"f:ports\":{\".\":{},\"k:{\\\"name\\\":\\\"port 🔑\\\"}\":{\".\":{},\"f:containerPort\":{},\"f:name\":{}}}},\"f:name\":{}},\"k:{\\\"name\\\":\\\" app-🚀\\\"}\":{\".\":{},\"f:container\":{\".\":{},\"f:image\":{},\"f:name\":{},\"f:ports\":{\".\":{},\"k:{\\\"name\\\":\\\"port-✅ \\\"}\":{\".\":{},\"f:containerPort\":{},\"f:name\":{}}}},\"f:name\":{}}}}}",
        "{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},\"f:spec\":{\".\":{},\"f:replicas\":{}}}"
    })
    void shouldReadAndWriteStructuredMergeDiffsGoldenSetsByteForByte(String golden) {
        assertThat(FieldsV1.encode(FieldsV1.decode(golden))).isEqualTo(golden);
    }

    @Test
    void shouldNormaliseOrderSpacingAndKeyFieldOrderOnRead() {
        String loose = "{ \"v:2\": {}, \"f:b\" : {}, \"k:{ \\\"protocol\\\":\\\"udp\\\",\\\"port\\\":443}\": {},"
                + " \"v: 3\": {}, \"i:1\": {}, \"f:a\": {} }";
        assertThat(FieldsV1.encode(FieldsV1.decode(loose)))
                .isEqualTo("{\"f:a\":{},\"f:b\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{},\"v:2\":{},\"v:3\":{},\"i:1\":{}}");
    }

    @Test
    void shouldEscapeHtmlCharactersAndControlsAsTheApiserverDoes() {
        FieldSet set = FieldSet.of(List.of(List.of(f("a<b>&c"), v("x\ny\u2028"))));
        assertThat(FieldsV1.encode(set)).isEqualTo("{\"f:a\\u003cb\\u003e\\u0026c\":{\"v:\\\"x\\\\ny\\\\u2028\\\"\":{}}}");
        assertThat(FieldsV1.decode(FieldsV1.encode(set))).isEqualTo(set);
    }

    @Test
    void shouldWriteNumbersAsGoDoesAndReadThemAsTheSameItems() {
        FieldSet set = FieldSet.of(List.of(List.of(v(2.0)), List.of(v(1.5)), List.of(v(1e21)), List.of(v(1e-7)),
                List.of(v(-3L))));
        assertThat(FieldsV1.encode(set)).isEqualTo("{\"v:-3\":{},\"v:1e-7\":{},\"v:1.5\":{},\"v:2\":{},\"v:1e+21\":{}}");
        assertThat(FieldsV1.decode(FieldsV1.encode(set)).contains(List.of(v(2L)))).isTrue();
    }

    @Test
    void shouldSkipKeysOfAnUnknownKindWithWhatIsUnderThem() {
        FieldSet set = FieldsV1.decode("{\"x:future\":{\"f:a\":{}},\"f:b\":{}}");
        assertThat(set).isEqualTo(FieldSet.of(List.of(List.of(f("b")))));
    }

    @Test
    void shouldReadAnEmptyObjectAsTheEmptySet() {
        assertThat(FieldsV1.decode("{}").isEmpty()).isTrue();
        assertThat(FieldsV1.encode(FieldSet.empty())).isEqualTo("{}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "[]", "null", "{", "{\"f:a\":{}", "{\"f:a\":{}}x", "{\"f:a\":1}", "{\"f:a\":[]}",
        "{\"a\":{}}", "{\"fa\":{}}", "{\"k:{\\\"name\\\":invalid}\":{}}", "{\"v:{\\\"a\\\":\\\"b\\\"\":{}}",
        "{\"k:{\\\"a\\\":\\\"b\\\"} garbage\":{}}", "{\"v:\\\"a\\\" \\\"b\\\"\":{}}", "{\"i:x\":{}}", "{\"k:{}\":{}}",
        "{\"v:null\":{}}", "{\"f:a\":{\"\\q\":{}}}", "{\"f:a\" {}}", "{\"f:a\":{},}"})
    void shouldRefuseMalformedInputWithAClearMessage(String json) {
        assertThatThrownBy(() -> FieldsV1.decode(json)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("fieldsV1: ");
    }

    @Test
    void shouldRefuseNestingDeeperThanTheBoundWithoutOverflowingTheStack() {
        String deep = "{\"f:a\":".repeat(100_000) + "{}" + "}".repeat(100_000);
        assertThatThrownBy(() -> FieldsV1.decode(deep)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nested deeper than 64 levels");
        String deepDot = "{\".\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        assertThatThrownBy(() -> FieldsV1.decode(deepDot)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nested deeper than 64 levels");
    }

    @Test
    void shouldAcceptNestingUpToTheBound() {
        String ok = "{\"f:a\":".repeat(63) + "{}" + "}".repeat(63);
        assertThat(FieldsV1.decode(ok).paths()).hasSize(1).allSatisfy(p -> assertThat(p).hasSize(63));
    }
}
