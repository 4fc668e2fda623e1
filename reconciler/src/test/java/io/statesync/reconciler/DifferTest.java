package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.list;
import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DifferTest {
    private static final ReconcilePolicy DEFAULTS = ReconcilePolicy.defaults();

    @Test
    void shouldReportNothingForEqualTrees() {
        Object spec = map("image", "nginx", "env", map("A", "1"), "ports", list(80, 443));

        assertThat(Differ.diff(spec, spec, DEFAULTS)).isEmpty();
    }

    @Test
    void shouldReportEachKindWithPathAndBothValues() {
        Object desired = map("image", "nginx:1.21", "replicas", 2, "port", 80);
        Object observed = map("image", "nginx:1.20", "replicas", "two", "extra", true);

        assertThat(Differ.diff(desired, observed, DEFAULTS)).containsExactly(
                new FieldDiff(FieldPath.of("image"), DiffKind.VALUE_MISMATCH, "nginx:1.21", "nginx:1.20"),
                new FieldDiff(FieldPath.of("replicas"), DiffKind.TYPE_MISMATCH, 2L, "two"),
                new FieldDiff(FieldPath.of("port"), DiffKind.MISSING, 80L, null),
                new FieldDiff(FieldPath.of("extra"), DiffKind.UNEXPECTED, null, true));
    }

    @Test
    void shouldDescendIntoNestedMaps() {
        List<FieldDiff> diff = Differ.diff(map("env", map("ENV", "prod", "X", "1")),
                map("env", map("ENV", "dev", "X", "1")), DEFAULTS);

        assertThat(diff).extracting(d -> d.path().format()).containsExactly("env.ENV");
    }

    @Test
    void shouldTreatAnIntWrittenAsADoubleAsEqualByDefault() {
        assertThat(Differ.diff(map("replicas", 5), map("replicas", 5.0), DEFAULTS)).isEmpty();
        assertThat(Differ.diff(map("replicas", 5), map("replicas", 5.5), DEFAULTS))
                .extracting(FieldDiff::kind).containsExactly(DiffKind.VALUE_MISMATCH);
    }

    @Test
    void shouldReportLongAgainstDoubleAsTypeMismatchUnderStrictTyping() {
        ReconcilePolicy strict = ReconcilePolicy.builder().strictTyping(true).build();

        assertThat(Differ.diff(map("replicas", 5), map("replicas", 5.0), strict))
                .containsExactly(new FieldDiff(FieldPath.of("replicas"), DiffKind.TYPE_MISMATCH, 5L, 5.0d));
    }

    @Test
    void shouldTreatANullValueAsPresent() {
        assertThat(Differ.diff(map("a", null), map("a", 1), DEFAULTS))
                .extracting(FieldDiff::kind).containsExactly(DiffKind.TYPE_MISMATCH);
        assertThat(Differ.diff(map("a", null), map(), DEFAULTS))
                .extracting(FieldDiff::kind).containsExactly(DiffKind.MISSING);
    }

    @Test
    void shouldTreatANullRootAsAbsent() {
        Object spec = map("a", 1);

        assertThat(Differ.diff(spec, null, DEFAULTS))
                .containsExactly(new FieldDiff(FieldPath.root(), DiffKind.MISSING, spec, null));
        assertThat(Differ.diff(null, spec, DEFAULTS))
                .containsExactly(new FieldDiff(FieldPath.root(), DiffKind.UNEXPECTED, null, spec));
        assertThat(Differ.diff(null, null, DEFAULTS)).isEmpty();
    }

    @Test
    void shouldCompareListsAtomicallyByDefault() {
        List<FieldDiff> diff = Differ.diff(map("ports", list(80, 443)), map("ports", list(443, 80)), DEFAULTS);

        assertThat(diff).containsExactly(new FieldDiff(FieldPath.of("ports"), DiffKind.VALUE_MISMATCH,
                list(80, 443), list(443, 80)));
    }

    @Test
    void shouldSkipIgnoredPathsWithWildcardsForMapKeys() {
        ReconcilePolicy policy = ReconcilePolicy.builder().ignoredPaths("annotations.*", "status").build();
        Object desired = map("annotations", map("a", "1"), "image", "x");
        Object observed = map("annotations", map("a", "2", "b", "3"), "image", "x", "status", "up");

        assertThat(Differ.diff(desired, observed, policy)).isEmpty();
    }

    @Test
    void shouldSkipIgnoredPathsWithWildcardsForAtomicListItems() {
        ReconcilePolicy policy = ReconcilePolicy.builder().ignoredPaths("containers.*.resources").build();
        Object desired = map("containers", list(map("name", "web", "resources", map("cpu", 1))));
        Object observedSame = map("containers", list(map("name", "web", "resources", map("cpu", 2))));
        Object observedOther = map("containers", list(map("name", "db", "resources", map("cpu", 1))));

        assertThat(Differ.diff(desired, observedSame, policy)).isEmpty();
        assertThat(Differ.diff(desired, observedOther, policy)).extracting(d -> d.path().format())
                .containsExactly("containers");
    }

    @Test
    void shouldMergeKeyedListsSoThatAReorderedListIsNoDiff() {
        ReconcilePolicy policy = ReconcilePolicy.builder().listMergeKey("containers", "name").build();
        Object web = map("name", "web", "image", "nginx");
        Object db = map("name", "db", "image", "pg");

        assertThat(Differ.diff(map("containers", list(web, db)), map("containers", list(db, web)), policy)).isEmpty();
    }

    @Test
    void shouldReportKeyedListItemsByKey() {
        ReconcilePolicy policy = ReconcilePolicy.builder().listMergeKey("containers", "name").build();
        Object desired = map("containers", list(map("name", "web", "image", "nginx:2"), map("name", "db")));
        Object observed = map("containers", list(map("name", "cache"), map("name", "web", "image", "nginx:1")));

        assertThat(Differ.diff(desired, observed, policy)).containsExactly(
                new FieldDiff(FieldPath.parse("containers[name=web].image"), DiffKind.VALUE_MISMATCH, "nginx:2",
                        "nginx:1"),
                new FieldDiff(FieldPath.parse("containers[name=db]"), DiffKind.MISSING, map("name", "db"), null),
                new FieldDiff(FieldPath.parse("containers[name=cache]"), DiffKind.UNEXPECTED, null,
                        map("name", "cache")));
    }

    @Test
    void shouldMatchMergeKeysAndIgnoresThroughWildcardsInNestedKeyedLists() {
        ReconcilePolicy policy = ReconcilePolicy.builder().listMergeKey("containers", "name")
                .listMergeKey("containers.*.ports", "port").ignoredPaths("containers.*.ports.*.hostIp").build();
        Object desired = map("containers", list(map("name", "web", "ports", list(map("port", 80), map("port", 443)))));
        Object observed = map("containers", list(map("name", "web",
                "ports", list(map("port", 443, "hostIp", "1.2.3.4"), map("port", 80)))));

        assertThat(Differ.diff(desired, observed, policy)).isEmpty();
    }

    @Test
    void shouldFallBackToAtomicWhenAKeyedListHasDuplicateOrMissingKeys() {
        ReconcilePolicy policy = ReconcilePolicy.builder().listMergeKey("containers", "name").build();
        Object desired = map("containers", list(map("name", "web"), map("name", "db")));
        Object observed = map("containers", list(map("name", "db"), map("image", "x")));

        assertThat(Differ.diff(desired, observed, policy)).extracting(d -> d.path().format(), FieldDiff::kind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("containers", DiffKind.VALUE_MISMATCH));
    }

    @Test
    void shouldListDiffsInDesiredOrderThenObservedOnlyKeys() {
        Object desired = map("c", 1, "a", 1, "b", 1);
        Object observed = map("z", 1, "b", 2, "a", 2);

        assertThat(Differ.diff(desired, observed, DEFAULTS)).extracting(d -> d.path().format())
                .containsExactly("c", "a", "b", "z");
    }

    @Test
    void shouldReportTypeMismatchBetweenMapAndList() {
        assertThat(Differ.diff(map("a", map()), map("a", list()), DEFAULTS))
                .extracting(FieldDiff::kind).containsExactly(DiffKind.TYPE_MISMATCH);
    }
}
