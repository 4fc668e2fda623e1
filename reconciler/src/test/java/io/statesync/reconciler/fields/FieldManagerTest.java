package io.statesync.reconciler.fields;

import static io.statesync.reconciler.Trees.list;
import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.statesync.reconciler.Trees;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldManagerTest {
    static final ListShapes SHAPES = names -> switch (String.join(".", names)) {
        case "metadata.finalizers" -> ListShape.SET;
        case "metadata.ownerReferences" -> ListShape.map("uid");
        case "spec.containers" -> ListShape.map("name");
        default -> ListShape.ATOMIC;
    };
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00.700Z");
    static final Instant T1 = T0.plusSeconds(60);
    static final Instant T2 = T0.plusSeconds(120);

    private final FieldManager fm = new FieldManager(SHAPES);

    static Map<String, Object> spec(Object... kv) {
        return map("spec", map(kv));
    }

    static ManagedFieldsEntry entry(List<ManagedFieldsEntry> entries, String manager) {
        return entries.stream().filter(e -> e.manager().equals(manager)).findFirst().orElse(null);
    }

    static String fields(List<ManagedFieldsEntry> entries, String manager) {
        ManagedFieldsEntry e = entry(entries, manager);
        return e == null ? null : FieldsV1.encode(e.fields());
    }

    private FieldManager.Result apply(FieldManager.Result live, Object config, String manager, boolean force,
            Instant now) {
        return fm.apply(live == null ? null : live.object(), config,
                live == null ? List.of() : live.managedFields(), manager, "v1", force, now);
    }

    @Test
    void shouldCreateTheObjectAndGiveTheApplierItsFields() {
        FieldManager.Result r = apply(null, spec("replicas", 3), "kubectl", false, T0);
        assertThat(r.object()).isEqualTo(spec("replicas", 3));
        assertThat(r.objectChanged()).isTrue();
        assertThat(r.managedFields()).containsExactly(new ManagedFieldsEntry("kubectl", Operation.Apply, "v1",
                Instant.parse("2026-01-01T00:00:00Z"), FieldsV1.decode("{\"f:spec\":{\"f:replicas\":{}}}")));
    }

    @Test
    void shouldChangeNothingWhenTheSameConfigurationIsAppliedAgain() {
        FieldManager.Result first = apply(null, spec("replicas", 3, "paused", false), "kubectl", false, T0);
        FieldManager.Result again = apply(first, spec("replicas", 3, "paused", false), "kubectl", false, T1);
        assertThat(again.objectChanged()).isFalse();
        assertThat(again.object()).isSameAs(first.object());
        assertThat(again.managedFields()).isEqualTo(first.managedFields());
    }

    @Test
    void shouldRefuseAnApplyThatChangesAnotherAppliersField() {
        FieldManager.Result a = apply(null, spec("replicas", 3), "kubectl", false, T0);
        assertThatThrownBy(() -> apply(a, spec("replicas", 5), "helm", false, T1))
                .isInstanceOfSatisfying(ApplyConflictException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("Apply failed with 1 conflict: conflict with \"kubectl\": .spec.replicas");
                    assertThat(e.conflicts()).singleElement().satisfies(c -> {
                        assertThat(c.field()).isEqualTo(".spec.replicas");
                        assertThat(c.message()).isEqualTo("conflict with \"kubectl\"");
                    });
                });
    }

    @Test
    void shouldShareAFieldTwoAppliersSetToTheSameValue() {
        FieldManager.Result a = apply(null, spec("replicas", 3), "a", false, T0);
        FieldManager.Result b = apply(a, spec("replicas", 3), "b", false, T1);
        assertThat(b.objectChanged()).isFalse();
        assertThat(fields(b.managedFields(), "a")).isEqualTo("{\"f:spec\":{\"f:replicas\":{}}}");
        assertThat(fields(b.managedFields(), "b")).isEqualTo("{\"f:spec\":{\"f:replicas\":{}}}");
        // The apiserver stamps a manager's time only when its write changed the object.
        assertThat(entry(b.managedFields(), "b").time()).isNull();
    }

    @Test
    void shouldTakeTheFieldFromItsOwnerWhenForced() {
        FieldManager.Result a = apply(null, spec("replicas", 3, "paused", false), "a", false, T0);
        FieldManager.Result b = apply(a, spec("replicas", 5), "b", true, T1);
        assertThat(b.object()).isEqualTo(spec("replicas", 5, "paused", false));
        assertThat(fields(b.managedFields(), "a")).isEqualTo("{\"f:spec\":{\"f:paused\":{}}}");
        assertThat(fields(b.managedFields(), "b")).isEqualTo("{\"f:spec\":{\"f:replicas\":{}}}");
        assertThat(entry(b.managedFields(), "b").time()).isEqualTo(Instant.parse("2026-01-01T00:01:00Z"));
    }

    @Test
    void shouldRemoveAFieldItsOnlyApplierDrops() {
        FieldManager.Result a = apply(null, spec("replicas", 3, "paused", true), "a", false, T0);
        FieldManager.Result again = apply(a, spec("replicas", 3), "a", false, T1);
        assertThat(again.object()).isEqualTo(spec("replicas", 3));
        assertThat(again.objectChanged()).isTrue();
        assertThat(fields(again.managedFields(), "a")).isEqualTo("{\"f:spec\":{\"f:replicas\":{}}}");
    }

    @Test
    void shouldKeepASharedFieldUntilBothAppliersDropIt() {
        FieldManager.Result a = apply(null, spec("replicas", 3, "paused", true), "a", false, T0);
        FieldManager.Result b = apply(a, spec("paused", true), "b", false, T1);
        FieldManager.Result aDrops = apply(b, spec("replicas", 3), "a", false, T2);
        assertThat(aDrops.object()).isEqualTo(spec("replicas", 3, "paused", true));
        FieldManager.Result bDrops = apply(aDrops, map("metadata", map("labels", map("b", "1"))), "b", false, T2);
        assertThat(bDrops.object()).isEqualTo(map("spec", map("replicas", 3), "metadata", map("labels", map("b", "1"))));
    }

    @Test
    void shouldRemoveAWholeMapItsApplierDropped() {
        FieldManager.Result a = apply(null, spec("replicas", 3, "strategy", map("type", "Recreate", "x", map("y", 1))),
                "a", false, T0);
        FieldManager.Result again = apply(a, spec("replicas", 3), "a", false, T1);
        assertThat(again.object()).isEqualTo(spec("replicas", 3));
    }

    @Test
    void shouldLetAnUpdateTakeAFieldSoThatTheAppliersOldValueThenConflicts() {
        FieldManager.Result a = apply(null, spec("replicas", 3, "paused", false), "a", false, T0);
        FieldManager.Result u = fm.update(a.object(), spec("replicas", 4, "paused", false), a.managedFields(),
                "kubectl-edit", "v1", T1);
        assertThat(fields(u.managedFields(), "kubectl-edit")).isEqualTo("{\"f:spec\":{\"f:replicas\":{}}}");
        assertThat(fields(u.managedFields(), "a")).isEqualTo("{\"f:spec\":{\"f:paused\":{}}}");
        assertThat(entry(u.managedFields(), "kubectl-edit").time()).isEqualTo(Instant.parse("2026-01-01T00:01:00Z"));
        assertThatThrownBy(() -> apply(u, spec("replicas", 3, "paused", false), "a", false, T2))
                .hasMessage("Apply failed with 1 conflict: conflict with \"kubectl-edit\" using v1: .spec.replicas");
        FieldManager.Result same = apply(u, spec("replicas", 4, "paused", false), "a", false, T2);
        assertThat(fields(same.managedFields(), "a")).isEqualTo("{\"f:spec\":{\"f:paused\":{},\"f:replicas\":{}}}");
    }

    @Test
    void shouldMergeMapListsByKeyAndOwnEachItem() {
        FieldManager.Result a = apply(null, spec("containers", list(map("name", "a", "image", "x"))), "a", false, T0);
        FieldManager.Result b = apply(a, spec("containers", list(map("name", "b", "image", "y"))), "b", false, T1);
        assertThat(b.object()).isEqualTo(spec("containers", list(map("name", "a", "image", "x"),
                map("name", "b", "image", "y"))));
        assertThat(fields(b.managedFields(), "a"))
                .isEqualTo("{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"a\\\"}\":{\".\":{},\"f:image\":{},\"f:name\":{}}}}}");
        assertThatThrownBy(() -> apply(b, spec("containers", list(map("name", "a", "image", "z"))), "b", false, T2))
                .hasMessage("Apply failed with 1 conflict: conflict with \"a\": .spec.containers[name=\"a\"].image");
        FieldManager.Result aDrops = apply(b, spec("replicas", 1), "a", false, T2);
        assertThat(aDrops.object()).isEqualTo(spec("containers", list(map("name", "b", "image", "y")), "replicas", 1));
    }

    @Test
    void shouldOwnSetItemsOneByOne() {
        FieldManager.Result a = apply(null, map("metadata", map("finalizers", list("x"))), "a", false, T0);
        FieldManager.Result b = apply(a, map("metadata", map("finalizers", list("y"))), "b", false, T1);
        assertThat(b.object()).isEqualTo(map("metadata", map("finalizers", list("x", "y"))));
        assertThat(fields(b.managedFields(), "a")).isEqualTo("{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"x\\\"\":{}}}}");
        FieldManager.Result aDrops = apply(b, map("metadata", map("finalizers", list())), "a", false, T2);
        assertThat(aDrops.object()).isEqualTo(map("metadata", map("finalizers", list("y"))));
    }

    @Test
    void shouldOwnAnAtomicListWhole() {
        FieldManager.Result a = apply(null, spec("args", list("1", "2")), "a", false, T0);
        assertThat(fields(a.managedFields(), "a")).isEqualTo("{\"f:spec\":{\"f:args\":{}}}");
        assertThatThrownBy(() -> apply(a, spec("args", list("1")), "b", false, T1))
                .hasMessage("Apply failed with 1 conflict: conflict with \"a\": .spec.args");
        FieldManager.Result b = apply(a, spec("args", list("3")), "b", true, T1);
        assertThat(b.object()).isEqualTo(spec("args", list("3")));
        assertThat(entry(b.managedFields(), "a")).isNull();
    }

    @Test
    void shouldGiveTheFieldsOfAnObjectWithoutManagedFieldsToBeforeFirstApply() {
        Object live = map("metadata", map("labels", map("app", "web")), "spec", map("replicas", 1, "paused", true));
        assertThatThrownBy(() -> fm.apply(live, spec("replicas", 2), List.of(), "a", "v1", false, T0))
                .hasMessage("Apply failed with 1 conflict: conflict with \"before-first-apply\" using v1: .spec.replicas");
        FieldManager.Result r = fm.apply(live, spec("replicas", 1), List.of(), "a", "v1", false, T0);
        assertThat(r.objectChanged()).isFalse();
        assertThat(r.managedFields()).extracting(ManagedFieldsEntry::manager).containsExactly("a", "before-first-apply");
        assertThat(fields(r.managedFields(), "before-first-apply")).isEqualTo(
                "{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},\"f:spec\":{\".\":{},\"f:paused\":{},\"f:replicas\":{}}}");
        assertThat(entry(r.managedFields(), "before-first-apply").operation()).isEqualTo(Operation.Update);
    }

    @Test
    void shouldRecordACreateByUpdateWithTheNewMapsAsMembers() {
        FieldManager.Result r = fm.update(null, map("metadata", map("labels", map("app", "x")), "spec", map("replicas", 1)),
                List.of(), "kubectl-create", "v1", T0);
        assertThat(r.managedFields()).singleElement().satisfies(e -> {
            assertThat(e.operation()).isEqualTo(Operation.Update);
            assertThat(FieldsV1.encode(e.fields())).isEqualTo(
                    "{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},\"f:spec\":{\".\":{},\"f:replicas\":{}}}");
        });
    }

    @Test
    void shouldLeaveAnExistingObjectWithoutManagedFieldsUntrackedByUpdates() {
        FieldManager.Result r = fm.update(spec("replicas", 1), spec("replicas", 2), List.of(), "u", "v1", T0);
        assertThat(r.managedFields()).isEmpty();
        assertThat(r.object()).isEqualTo(spec("replicas", 2));
        assertThat(r.objectChanged()).isTrue();
    }

    @Test
    void shouldKeepTheTimeOfAnUpdateThatOnlyRemoved() {
        FieldManager.Result u = fm.update(null, spec("a", 1, "b", 2), List.of(), "u", "v1", T0);
        FieldManager.Result removed = fm.update(u.object(), spec("a", 1), u.managedFields(), "u", "v1", T1);
        assertThat(entry(removed.managedFields(), "u").time()).isEqualTo(entry(u.managedFields(), "u").time());
        assertThat(fields(removed.managedFields(), "u")).isEqualTo("{\"f:spec\":{\".\":{},\"f:a\":{}}}");
    }

    @Test
    void shouldRemoveRemovedFieldsFromEveryManager() {
        FieldManager.Result a = apply(null, spec("a", 1, "b", 2), "a", false, T0);
        FieldManager.Result u = fm.update(a.object(), spec("a", 1), a.managedFields(), "u", "v1", T1);
        assertThat(fields(u.managedFields(), "a")).isEqualTo("{\"f:spec\":{\"f:a\":{}}}");
        assertThat(entry(u.managedFields(), "u")).isNull();
    }

    @Test
    void shouldMergeTheOldestUpdateEntriesIntoAncientChanges() {
        FieldManager.Result r = fm.update(null, map("metadata", map("labels", map())), List.of(), "creator", "v1", T0);
        for (int i = 0; i < 11; i++) {
            Map<String, Object> labels = new java.util.LinkedHashMap<>(castMap(castMap(r.object()).get("metadata")).get("labels") instanceof Map<?, ?> m
                    ? castMap(m) : Map.of());
            labels.put("l" + i, "v");
            r = fm.update(r.object(), map("metadata", map("labels", labels)), r.managedFields(), "writer-" + i, "v1",
                    T0.plusSeconds(10L * (i + 1)));
        }
        List<ManagedFieldsEntry> updates = r.managedFields().stream().filter(e -> e.operation() == Operation.Update).toList();
        assertThat(updates).hasSize(10);
        ManagedFieldsEntry ancient = entry(updates, "ancient-changes");
        assertThat(ancient).isNotNull();
        assertThat(FieldsV1.encode(ancient.fields())).isEqualTo(
                "{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:l0\":{},\"f:l1\":{}}}}");
        assertThat(ancient.time()).isEqualTo(Instant.parse("2026-01-01T00:00:20Z"));
        assertThat(entry(updates, "writer-0")).isNull();
        assertThat(entry(updates, "writer-1")).isNull();
        assertThat(entry(updates, "writer-2")).isNotNull();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void shouldGroupSeveralConflictsByManagerInTheApiserversWords() {
        FieldManager.Result a = apply(null, spec("a", 1, "b", 1), "a", false, T0);
        FieldManager.Result u = fm.update(a.object(), spec("a", 1, "b", 1, "c", 1), a.managedFields(), "u", "v1", T1);
        assertThatThrownBy(() -> apply(u, spec("a", 2, "b", 2, "c", 2), "b", false, T2))
                .isInstanceOfSatisfying(ApplyConflictException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("Apply failed with 3 conflicts: conflicts with \"a\":\n"
                            + "- .spec.a\n- .spec.b\nconflicts with \"u\" using v1:\n- .spec.c");
                    assertThat(e.conflicts()).extracting(Conflict::message).containsExactly("conflict with \"a\"",
                            "conflict with \"a\"", "conflict with \"u\" using v1");
                });
    }

    @Test
    void shouldPrintAConflictWithATimeAsTheApiserverWould() {
        Conflict c = new Conflict("u", Operation.Update, "apps/v1", Instant.parse("2026-01-01T10:00:00.5Z"),
                List.of(new PathElement.Field("spec"), new PathElement.Field("replicas")));
        assertThat(c.message()).isEqualTo("conflict with \"u\" using apps/v1 at 2026-01-01T10:00:00Z");
        assertThat(c.field()).isEqualTo(".spec.replicas");
    }

    @Test
    void shouldSortEntriesAsTheApiserverDoes() {
        FieldSet s = FieldSet.of(List.of(List.of(new PathElement.Field("a"))));
        ManagedFieldsEntry u1 = new ManagedFieldsEntry("z", Operation.Update, "v1", T0, s);
        ManagedFieldsEntry u2 = new ManagedFieldsEntry("a", Operation.Update, "v1", T1, s);
        ManagedFieldsEntry a1 = new ManagedFieldsEntry("b", Operation.Apply, "v1", T2, s);
        ManagedFieldsEntry a2 = new ManagedFieldsEntry("c", Operation.Apply, "v1", null, s);
        assertThat(FieldManager.sorted(List.of(u2, u1, a1, a2))).containsExactly(a2, a1, u1, u2);
    }

    @Test
    void shouldRefuseAConfigurationWithDuplicateMapListKeys() {
        assertThatThrownBy(() -> apply(null, spec("containers", list(map("name", "a"), map("name", "a"))), "a", false, T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(".spec.containers: duplicate entries for key [name=\"a\"]");
        assertThatThrownBy(() -> apply(null, spec("containers", list(map("image", "a"))), "a", false, T0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(".spec.containers: element 0: ");
    }

    @Test
    void shouldKeepMapListOrderAsTheApiserverMergesIt() {
        FieldManager.Result a = apply(null, spec("containers", list(map("name", "a"), map("name", "b"), map("name", "c"))),
                "a", false, T0);
        FieldManager.Result b = apply(a, spec("containers", list(map("name", "d"), map("name", "b"))), "b", false, T1);
        List<Object> names = new ArrayList<>();
        for (Object c : (List<?>) castMap(castMap(b.object()).get("spec")).get("containers")) {
            names.add(castMap(c).get("name"));
        }
        assertThat(names).containsExactly("a", "d", "b", "c");
    }

    @Test
    void shouldKeepAMapWhenTheConfigurationSetsItToNull() {
        FieldManager.Result a = apply(null, spec("strategy", map("type", "x")), "a", false, T0);
        FieldManager.Result b = apply(a, spec("strategy", null), "b", false, T1);
        assertThat(b.object()).isEqualTo(spec("strategy", map("type", "x")));
        assertThat(fields(b.managedFields(), "b")).isEqualTo("{\"f:spec\":{\"f:strategy\":{}}}");
        assertThat(Trees.deepEquals(b.object(), a.object(), false)).isTrue();
    }
}
