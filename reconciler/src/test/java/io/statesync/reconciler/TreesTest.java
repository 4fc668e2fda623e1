package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class TreesTest {

    @Test
    void shouldBuildTheNormalisedMapOfACompactMapsConvertedEntries() {
        CompactMap<String, Object> source = CompactMap.<String, Object>builder(3)
            .put("image", "nginx").put("replicas", 3).put("env", Map.of("A", "1")).build();

        Map<String, Object> tree = Trees.mapOf(source, Trees::normalize);

        assertThat(tree).isEqualTo(Trees.normalize(source));
        assertThat(new ArrayList<>(tree.keySet())).containsExactly("image", "replicas", "env");
        assertThat(Trees.normalize(tree)).isSameAs(tree);
    }

    @Test
    void shouldTurnKeysThatAreNotStringsIntoStringsWhenBuildingFromACompactMap() {
        CompactMap<Object, Object> source = CompactMap.builder(2).put(new StringBuilder("a"), 1L).put("b", 2L).build();

        assertThat(Trees.mapOf(source, v -> v)).isEqualTo(Map.of("a", 1L, "b", 2L));
    }

    @Test
    void shouldRefuseAConvertedValueThatIsNotNormalised() {
        CompactMap<String, Object> source = CompactMap.<String, Object>builder(1).put("replicas", 3).build();

        assertThatThrownBy(() -> Trees.mapOf(source, v -> v)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldNormaliseEdgeNumberAndStringTypes() {
        Map<Object, Object> raw = new LinkedHashMap<>();
        raw.put(new StringBuilder("i"), 5);
        raw.put("f", 1.5f);
        raw.put("d", new BigDecimal("2.25"));
        raw.put("s", new StringBuilder("utf8"));
        raw.put("a", new Object[] {(short) 1, (byte) 2});

        Object tree = Trees.normalize(raw);

        assertThat(tree).isEqualTo(Map.of("i", 5L, "f", 1.5d, "d", 2.25d, "s", "utf8", "a", List.of(1L, 2L)));
    }

    @Test
    void shouldReturnUnmodifiableCopiesThatKeepInsertionOrder() {
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("z", 1);
        raw.put("a", new ArrayList<>(List.of(1)));
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = (Map<String, Object>) Trees.normalize(raw);

        raw.put("later", true);

        assertThat(tree.keySet()).containsExactly("z", "a");
        assertThatThrownBy(() -> tree.put("x", 1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<Object>) tree.get("a")).add(2L))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shouldShareAlreadyNormalisedTrees() {
        Map<String, Object> tree = Trees.map("a", Trees.list(1, 2), "b", Trees.map("c", "d"));

        assertThat(Trees.normalize(tree)).isSameAs(tree);
    }

    @Test
    void shouldBuildMapsAndListsThatNeedNoFurtherNormalising() {
        Map<String, Object> inner = Trees.mapBuilder(1).put("c", "d").build();
        List<Object> items = Trees.listBuilder(2).add(1L).add(inner).build();
        Map<String, Object> tree = Trees.mapBuilder(2).put("z", items).put("a", null).build();

        assertThat(Trees.normalize(tree)).isSameAs(tree);
        assertThat(tree.keySet()).containsExactly("z", "a");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("z", List.of(1L, Map.of("c", "d")));
        expected.put("a", null);
        assertThat(tree).isEqualTo(expected).hasSameHashCodeAs(expected);
        assertThat(expected).isEqualTo(tree);
        assertThat(items).isEqualTo(List.of(1L, Map.of("c", "d"))).hasSameHashCodeAs(List.of(1L, Map.of("c", "d")));
        assertThatThrownBy(() -> tree.put("x", 1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> tree.entrySet().iterator().next().setValue(2L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> items.add(2L)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Property
    void aTreeRebuiltWithTheBuildersEqualsItsNormalisedFormAndIsKeptAsItIs(@ForAll("trees") Object tree) {
        Object rebuilt = rebuild(tree);

        assertThat(rebuilt).isEqualTo(Trees.normalize(tree));
        assertThat(Trees.normalize(rebuilt)).isSameAs(rebuilt);
        assertThat(Trees.deepEquals(rebuilt, tree, true)).isTrue();
    }

    @Provide
    Arbitrary<Object> trees() {
        return TreeArbitraries.trees(3);
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

    @Test
    void shouldRefuseToBuildFromValuesThatAreNotNormalised() {
        Map<String, Object> plain = new LinkedHashMap<>(Map.of("a", 1L));

        assertThatThrownBy(() -> Trees.mapBuilder(1).put("n", 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Trees.mapBuilder(1).put("m", plain)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Trees.listBuilder(1).add(new StringBuilder("utf8"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Trees.mapBuilder(1).put(null, 1L)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldNotLetABuiltMapChangeThroughItsBuilder() {
        Trees.MapBuilder builder = Trees.mapBuilder(1).put("a", 1L);
        Map<String, Object> built = builder.build();

        assertThatThrownBy(() -> builder.put("b", 2L)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class);
        assertThat(built).containsOnlyKeys("a");
    }

    @Test
    void shouldKeepNullValuesInMapsAndLists() {
        assertThat(Trees.map("a", null)).containsEntry("a", null);
        assertThat(Trees.list(1, null)).containsExactly(1L, null);
    }

    @Test
    void shouldRejectValuesWithoutTreeForm() {
        assertThatThrownBy(() -> Trees.normalize(new Object())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCompareNumbersByValueUnlessTypingIsStrict() {
        assertThat(Trees.deepEquals(5L, 5.0d, false)).isTrue();
        assertThat(Trees.deepEquals(Trees.map("r", 5), Trees.map("r", 5.0), false)).isTrue();
        assertThat(Trees.deepEquals(5L, 5.5d, false)).isFalse();
        assertThat(Trees.deepEquals(5L, 5.0d, true)).isFalse();
        assertThat(Trees.deepEquals(Long.MAX_VALUE, 0x1p63, false)).isFalse();
    }

    @Test
    void shouldCompareMapsRegardlessOfKeyOrderAndListsByPosition() {
        assertThat(Trees.deepEquals(Trees.map("a", 1, "b", 2), Trees.map("b", 2, "a", 1), true)).isTrue();
        assertThat(Trees.deepEquals(Trees.list(1, 2), Trees.list(2, 1), true)).isFalse();
        assertThat(Trees.deepEquals(Trees.map("a", null), Trees.map("b", null), true)).isFalse();
    }

    @Test
    void shouldWriteKeyStringsSoThatFiveAndFivePointZeroAddressTheSameItem() {
        assertThat(Trees.keyString(5L)).isEqualTo("5");
        assertThat(Trees.keyString(5.0d)).isEqualTo("5");
        assertThat(Trees.keyString("web")).isEqualTo("web");
        assertThat(Trees.keyString(Trees.map())).isNull();
    }

    @Test
    void shouldWriteCanonicalJsonWithSortedKeys() {
        Map<String, Object> a = Trees.map("b", 1, "a", Trees.list("x\"y", null, true, 2.5));

        assertThat(Trees.toJson(a)).isEqualTo("{\"b\":1,\"a\":[\"x\\\"y\",null,true,2.5]}");
        assertThat(Trees.canonicalJson(a)).isEqualTo("{\"a\":[\"x\\\"y\",null,true,2.5],\"b\":1}");
    }

    @Test
    void shouldReadKeyedItemsAndPositionsAlongAPath() {
        Object tree = Trees.map("containers", Trees.list(Trees.map("name", "web", "image", "nginx")));

        assertThat(Trees.get(tree, FieldPath.parse("containers[name=web].image"))).isEqualTo("nginx");
        assertThat(Trees.get(tree, FieldPath.parse("containers[0].name"))).isEqualTo("web");
        assertThat(Trees.get(tree, FieldPath.parse("containers[name=db]"))).isNull();
    }
}
