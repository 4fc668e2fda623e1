package io.statesync.reconciler.fields;

import static org.assertj.core.api.Assertions.assertThat;

import io.statesync.reconciler.Trees;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Ownership over a fixed set of leaf fields with values from a small domain, so that independently drawn
 * configurations overlap often: some fields shared with the same value, some with different values.
 */
class FieldManagerPropertiesTest {
    private static final List<String> LEAVES = List.of("a", "b", "c", "d", "e");
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private final FieldManager fm = new FieldManager(FieldManagerTest.SHAPES);

    @Provide
    Arbitrary<Map<String, Object>> configs() {
        return Arbitraries.maps(Arbitraries.of(LEAVES), Arbitraries.longs().between(1, 2).map(l -> (Object) l))
                .ofMaxSize(LEAVES.size()).map(m -> Trees.map("spec", new LinkedHashMap<>(m)));
    }

    private static Map<?, ?> spec(Object tree) {
        Object spec = ((Map<?, ?>) tree).get("spec");
        return spec == null ? Map.of() : (Map<?, ?>) spec;
    }

    private static boolean owns(List<ManagedFieldsEntry> entries, String manager, String leaf) {
        return entries.stream().anyMatch(e -> e.manager().equals(manager)
                && e.fields().contains(List.of(new PathElement.Field("spec"), new PathElement.Field(leaf))));
    }

    private FieldManager.Result apply(FieldManager.Result on, Object config, String manager, int second) {
        return fm.apply(on == null ? null : on.object(), config, on == null ? List.of() : on.managedFields(), manager,
                "v1", true, T.plusSeconds(second));
    }

    @Property
    void applyingTheSameConfigurationTwiceChangesNothing(@ForAll("configs") Map<String, Object> base,
            @ForAll("configs") Map<String, Object> config) {
        FieldManager.Result first = apply(apply(null, base, "other", 0), config, "a", 1);
        FieldManager.Result again = apply(first, config, "a", 2);
        assertThat(again.objectChanged()).isFalse();
        assertThat(again.object()).isEqualTo(first.object());
        assertThat(again.managedFields()).isEqualTo(first.managedFields());
    }

    @Property
    void appliesByAThenBThenALeaveEachFieldWithTheManagersThatSetIt(@ForAll("configs") Map<String, Object> a,
            @ForAll("configs") Map<String, Object> b) {
        FieldManager.Result r = apply(apply(apply(null, a, "A", 0), b, "B", 1), a, "A", 2);
        for (String leaf : LEAVES) {
            Object inA = spec(a).get(leaf);
            Object inB = spec(b).get(leaf);
            assertThat(owns(r.managedFields(), "A", leaf)).as(leaf).isEqualTo(inA != null);
            assertThat(owns(r.managedFields(), "B", leaf)).as(leaf).isEqualTo(inB != null && (inA == null || inA.equals(inB)));
            assertThat(spec(r.object()).get(leaf)).as(leaf).isEqualTo(inA != null ? inA : inB);
        }
    }

    @Property
    void updatesTakeOwnershipOfWhatTheyChange(@ForAll("configs") Map<String, Object> a,
            @ForAll("configs") Map<String, Object> updated) {
        FieldManager.Result applied = apply(null, a, "A", 0);
        FieldManager.Result u = fm.update(applied.object(), updated, applied.managedFields(), "U", "v1", T.plusSeconds(1));
        for (String leaf : LEAVES) {
            Object before = spec(applied.object()).get(leaf);
            Object after = spec(updated).get(leaf);
            boolean changed = after != null && !after.equals(before);
            if (changed) {
                assertThat(owns(u.managedFields(), "U", leaf)).as(leaf).isTrue();
                assertThat(owns(u.managedFields(), "A", leaf)).as(leaf).isFalse();
            }
            if (after == null) {
                assertThat(owns(u.managedFields(), "A", leaf) || owns(u.managedFields(), "U", leaf)).as(leaf).isFalse();
            }
        }
    }

    @Property
    void removalFollowsOwnership(@ForAll("configs") Map<String, Object> b, @ForAll("configs") Map<String, Object> a1,
            @ForAll("configs") Map<String, Object> a2) {
        FieldManager.Result r = apply(apply(apply(null, b, "B", 0), a1, "A", 1), a2, "A", 2);
        for (String leaf : LEAVES) {
            boolean dropped = spec(a1).containsKey(leaf) && !spec(a2).containsKey(leaf);
            if (dropped) {
                assertThat(spec(r.object()).containsKey(leaf)).as(leaf).isEqualTo(owns(r.managedFields(), "B", leaf));
            }
        }
    }
}
