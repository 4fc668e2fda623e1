package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.list;
import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PatchesTest {

    @Test
    void shouldSetAndRemoveMapFields() {
        Object observed = map("image", "nginx:1.20", "replicas", 2, "extra", 1);

        Object result = Patches.apply(observed, List.of(
                PatchOp.set(FieldPath.of("image"), "nginx:1.21"),
                PatchOp.remove(FieldPath.of("extra"))));

        assertThat(result).isEqualTo(map("image", "nginx:1.21", "replicas", 2));
    }

    @Test
    void shouldCreateMissingParents() {
        Object result = Patches.apply(null, List.of(PatchOp.set(FieldPath.of("env", "ENV"), "prod")));

        assertThat(result).isEqualTo(map("env", map("ENV", "prod")));
    }

    @Test
    void shouldReplaceAScalarThatStandsWhereAContainerIsNeeded() {
        Object result = Patches.apply(map("env", "flat"), List.of(PatchOp.set(FieldPath.of("env", "ENV"), "prod")));

        assertThat(result).isEqualTo(map("env", map("ENV", "prod")));
    }

    @Test
    void shouldIgnoreRemovalOfAnAbsentPath() {
        Object observed = map("a", 1);

        assertThat(Patches.apply(observed, List.of(PatchOp.remove(FieldPath.of("b", "c"))))).isEqualTo(observed);
    }

    @Test
    void shouldReplaceOrRemoveTheRoot() {
        assertThat(Patches.apply(map("a", 1), List.of(PatchOp.set(FieldPath.root(), map("b", 2)))))
                .isEqualTo(map("b", 2));
        assertThat(Patches.apply(map("a", 1), List.of(PatchOp.remove(FieldPath.root())))).isNull();
    }

    @Test
    void shouldAddressKeyedListItemsByKey() {
        Object observed = map("containers", list(map("name", "db", "image", "pg"), map("name", "web", "image", "a")));

        Object result = Patches.apply(observed, List.of(
                PatchOp.set(FieldPath.parse("containers[name=web].image"), "b"),
                PatchOp.remove(FieldPath.parse("containers[name=db]")),
                PatchOp.set(FieldPath.parse("containers[name=cache]"), map("name", "cache"))));

        assertThat(result).isEqualTo(map("containers",
                list(map("name", "web", "image", "b"), map("name", "cache"))));
    }

    @Test
    void shouldCreateAKeyedItemWithItsKeyWhenSettingInsideAnAbsentOne() {
        Object result = Patches.apply(map("containers", list()),
                List.of(PatchOp.set(FieldPath.parse("containers[name=web].image"), "x")));

        assertThat(result).isEqualTo(map("containers", list(map("name", "web", "image", "x"))));
    }

    @Test
    void shouldAddressListPositions() {
        Object result = Patches.apply(map("ports", list(80, 443)), List.of(
                PatchOp.set(FieldPath.parse("ports[0]"), 8080),
                PatchOp.set(FieldPath.parse("ports[2]"), 9090),
                PatchOp.remove(FieldPath.parse("ports[1]"))));

        assertThat(result).isEqualTo(map("ports", list(8080, 9090)));
        assertThatThrownBy(() -> Patches.apply(map("ports", list()), List.of(PatchOp.set(FieldPath.parse("ports[5]"), 1))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldNeverChangeTheCallersTree() {
        Map<String, Object> observed = new LinkedHashMap<>();
        observed.put("env", new LinkedHashMap<>(Map.of("A", "1")));

        Patches.apply(observed, List.of(PatchOp.set(FieldPath.of("env", "B"), "2"), PatchOp.remove(FieldPath.of("env", "A"))));

        assertThat(observed).isEqualTo(Map.of("env", Map.of("A", "1")));
    }
}
