package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.list;
import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThreeWayMergeTest {
    private static final ReconcilePolicy DEFAULTS = ReconcilePolicy.defaults();

    @Test
    void shouldPatchExactlyTheThreeChangedFieldsInReferenceScenario() {
        Object v1 = map("image", "nginx:1.20", "replicas", 2, "port", 80, "env", map("ENV", "production"));
        Object v2 = map("image", "nginx:1.21", "replicas", 5, "port", 8080, "env", map("ENV", "production"));

        MergeResult result = ThreeWayMerge.merge(v2, v1, v1, DEFAULTS);

        assertThat(result.patch()).containsExactlyInAnyOrder(
                PatchOp.set(FieldPath.of("image"), "nginx:1.21"),
                PatchOp.set(FieldPath.of("replicas"), 5),
                PatchOp.set(FieldPath.of("port"), 8080));
        assertThat(result.target()).isEqualTo(v2);
        assertThat(result.conflicts()).isEmpty();
    }

    @Test
    void shouldPruneAFieldStatesyncSetAndDesiredRemoved() {
        Object lastApplied = map("image", "a", "debug", true);
        Object observed = map("image", "a", "debug", true);

        MergeResult result = ThreeWayMerge.merge(map("image", "a"), observed, lastApplied, DEFAULTS);

        assertThat(result.patch()).containsExactly(PatchOp.remove(FieldPath.of("debug")));
        assertThat(result.target()).isEqualTo(map("image", "a"));
    }

    @Test
    void shouldLeaveAFieldOthersAddedAlone() {
        Object observed = map("image", "a", "sidecar", "istio", "env", map("ENV", "p", "INJECTED", "1"));
        Object desired = map("image", "a", "env", map("ENV", "p"));

        MergeResult result = ThreeWayMerge.merge(desired, observed, desired, DEFAULTS);

        assertThat(result.inSync()).isTrue();
        assertThat(result.target()).isEqualTo(observed);
    }

    @Test
    void shouldPruneUnownedFieldsInStrictMode() {
        ReconcilePolicy strict = ReconcilePolicy.builder().strict(true).build();
        Object observed = map("image", "a", "sidecar", "istio");

        MergeResult result = ThreeWayMerge.merge(map("image", "a"), observed, null, strict);

        assertThat(result.patch()).containsExactly(PatchOp.remove(FieldPath.of("sidecar")));
    }

    @Test
    void shouldResolveAConflictInFavourOfDesiredAndReportIt() {
        Object lastApplied = map("replicas", 2);
        Object observed = map("replicas", 3);
        Object desired = map("replicas", 5);

        MergeResult result = ThreeWayMerge.merge(desired, observed, lastApplied, DEFAULTS);

        assertThat(result.patch()).containsExactly(PatchOp.set(FieldPath.of("replicas"), 5));
        assertThat(result.conflicts()).containsExactly(new FieldConflict(FieldPath.of("replicas"), 5L, 3L, 2L));
    }

    @Test
    void shouldNotReportDriftAloneOrASpecChangeAloneAsAConflict() {
        Object lastApplied = map("replicas", 2);

        assertThat(ThreeWayMerge.merge(map("replicas", 2), map("replicas", 3), lastApplied, DEFAULTS).conflicts())
                .isEmpty();
        assertThat(ThreeWayMerge.merge(map("replicas", 5), map("replicas", 2), lastApplied, DEFAULTS).conflicts())
                .isEmpty();
    }

    @Test
    void shouldLeaveIgnoredPathsExactlyAsObserved() {
        ReconcilePolicy policy = ReconcilePolicy.builder().ignoredPaths("replicas").strict(true).build();
        Object observed = map("replicas", 7, "image", "a");

        MergeResult result = ThreeWayMerge.merge(map("replicas", 2, "image", "b"), observed, map("replicas", 2), policy);

        assertThat(result.patch()).containsExactly(PatchOp.set(FieldPath.of("image"), "b"));
        assertThat(result.target()).isEqualTo(map("replicas", 7, "image", "b"));
    }

    @Test
    void shouldKeepTheObservedNumberWhenItEqualsDesiredByValue() {
        MergeResult result = ThreeWayMerge.merge(map("replicas", 5), map("replicas", 5.0), null, DEFAULTS);

        assertThat(result.inSync()).isTrue();
        assertThat(result.target()).isEqualTo(map("replicas", 5.0));
    }

    @Test
    void shouldMergeKeyedListsItemByItemAndKeepUnownedItems() {
        ReconcilePolicy policy = ReconcilePolicy.builder().listMergeKey("containers", "name").build();
        Object lastApplied = map("containers", list(map("name", "web", "image", "a"), map("name", "old")));
        Object observed = map("containers", list(map("name", "sidecar"), map("name", "old"),
                map("name", "web", "image", "a")));
        Object desired = map("containers", list(map("name", "web", "image", "b"), map("name", "new")));

        MergeResult result = ThreeWayMerge.merge(desired, observed, lastApplied, policy);

        assertThat(result.patch()).containsExactly(
                PatchOp.set(FieldPath.parse("containers[name=web].image"), "b"),
                PatchOp.set(FieldPath.parse("containers[name=new]"), map("name", "new")),
                PatchOp.remove(FieldPath.parse("containers[name=old]")));
        assertThat(result.target()).isEqualTo(map("containers", list(map("name", "sidecar"),
                map("name", "web", "image", "b"), map("name", "new"))));
        assertThat(Patches.apply(observed, result.patch())).isEqualTo(result.target());
    }

    @Test
    void shouldSetEveryTopLevelFieldWhenNothingIsObserved() {
        Object desired = map("image", "a", "env", map("X", "1"));

        MergeResult result = ThreeWayMerge.merge(desired, null, null, DEFAULTS);

        assertThat(result.patch()).containsExactly(PatchOp.set(FieldPath.of("image"), "a"),
                PatchOp.set(FieldPath.of("env"), map("X", "1")));
        assertThat(Patches.apply(null, result.patch())).isEqualTo(desired);
    }

    @Test
    void shouldReplaceAnAtomicListWhole() {
        MergeResult result = ThreeWayMerge.merge(map("ports", list(80)), map("ports", list(80, 443)), null, DEFAULTS);

        assertThat(result.patch()).containsExactly(PatchOp.set(FieldPath.of("ports"), list(80)));
    }
}
