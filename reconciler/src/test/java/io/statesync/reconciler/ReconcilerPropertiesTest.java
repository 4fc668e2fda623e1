package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class ReconcilerPropertiesTest {

    @Provide
    Arbitrary<Object> specs() {
        return TreeArbitraries.specs();
    }

    @Provide
    Arbitrary<Object> specsOrNull() {
        return Arbitraries.oneOf(TreeArbitraries.specs(), Arbitraries.just(null));
    }

    @Provide
    Arbitrary<ReconcilePolicy> policies() {
        return Arbitraries.of(ReconcilePolicy.defaults(), TreeArbitraries.KEYED,
                TreeArbitraries.KEYED.toBuilder().strict(true).build(),
                ReconcilePolicy.builder().strictTyping(true).build());
    }

    /**
     * The plan and the status share one merge ({@link CorrectionPlanner#merge}): it must be the three-way merge of the
     * input's own trees whenever an observed state is there to merge with, and absent otherwise.
     */
    @Property
    void theSharedMergeIsTheThreeWayMergeOfTheInput(@ForAll("specsOrNull") Object desired,
                                                    @ForAll("specsOrNull") Object observed,
                                                    @ForAll("specsOrNull") Object lastApplied,
                                                    @ForAll boolean deleting, @ForAll boolean reported,
                                                    @ForAll("policies") ReconcilePolicy policy) {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        ObservedView view = reported ? ObservedView.present(observed, 1, now, null) : ObservedView.absent(now);
        PlanInput in = PlanInput.builder().key("K/ns/n").generation(1).desiredSpec(desired).deleting(deleting)
                .observed(view).lastApplied(lastApplied).now(now).policy(policy).build();

        MergeResult shared = CorrectionPlanner.merge(in);

        if (deleting || desired == null || !view.isPresent()) {
            assertThat(shared).isNull();
        } else {
            MergeResult own = ThreeWayMerge.merge(desired, observed, lastApplied, policy);
            assertThat(Trees.deepEquals(shared.target(), own.target(), true)).isTrue();
            assertThat(shared.patch()).isEqualTo(own.patch());
            assertThat(shared.conflicts()).isEqualTo(own.conflicts());
        }
    }

    @Property
    void applyingTheMergePatchGivesExactlyTheTarget(@ForAll("specs") Object desired, @ForAll("specsOrNull") Object observed,
                                                    @ForAll("specsOrNull") Object lastApplied,
                                                    @ForAll("policies") ReconcilePolicy policy) {
        MergeResult merge = ThreeWayMerge.merge(desired, observed, lastApplied, policy);

        assertThat(Trees.deepEquals(Patches.apply(observed, merge.patch()), merge.target(), true)).isTrue();
    }

    @Property
    void theTargetEqualsDesiredOnEveryOwnedField(@ForAll("specs") Object desired, @ForAll("specsOrNull") Object observed,
                                                 @ForAll("specsOrNull") Object lastApplied,
                                                 @ForAll("policies") ReconcilePolicy policy) {
        Object applied = Patches.apply(observed, ThreeWayMerge.merge(desired, observed, lastApplied, policy).patch());

        List<FieldDiff> left = Differ.diff(desired, applied, policy);

        assertThat(left).allSatisfy(d -> {
            assertThat(d.kind()).isEqualTo(DiffKind.UNEXPECTED);
            assertThat(policy.strict()).isFalse();
            assertThat(Trees.get(lastApplied, d.path())).isNull();
        });
    }

    @Property
    void planningAgainAfterApplyingIsANoOp(@ForAll("specs") Object desired, @ForAll("specsOrNull") Object observed,
                                           @ForAll("specsOrNull") Object lastApplied,
                                           @ForAll("policies") ReconcilePolicy policy) {
        List<PatchOp> patch = ThreeWayMerge.merge(desired, observed, lastApplied, policy).patch();
        Object once = Patches.apply(observed, patch);

        assertThat(Patches.apply(once, patch)).isEqualTo(once);
        assertThat(ThreeWayMerge.merge(desired, once, lastApplied, policy).patch()).isEmpty();
        assertThat(ThreeWayMerge.merge(desired, once, desired, policy).patch()).isEmpty();
    }

    @Property
    void applyingNeverChangesItsInput(@ForAll("specs") Object desired, @ForAll("specsOrNull") Object observed) {
        String before = Trees.toJson(observed);

        Patches.apply(observed, ThreeWayMerge.merge(desired, observed, null, TreeArbitraries.KEYED).patch());

        assertThat(Trees.toJson(observed)).isEqualTo(before);
    }

    @Property
    void setThenGetReturnsTheValueAndRemoveThenGetReturnsNothing(@ForAll("specs") Object tree,
                                                                 @ForAll("specs") Object value) {
        FieldPath path = FieldPath.of("env", "X");

        assertThat(Trees.get(Patches.apply(tree, List.of(PatchOp.set(path, value))), path)).isEqualTo(value);
        assertThat(Trees.get(Patches.apply(tree, List.of(PatchOp.remove(path))), path)).isNull();
    }

    @Property
    void aDiffOfATreeWithItselfIsEmpty(@ForAll("specs") Object tree, @ForAll("policies") ReconcilePolicy policy) {
        assertThat(Differ.diff(tree, tree, policy)).isEmpty();
    }

    @Property
    void swappingTheSidesSwapsMissingAndUnexpected(@ForAll("specs") Object a, @ForAll("specsOrNull") Object b,
                                                   @ForAll("policies") ReconcilePolicy policy) {
        Set<FieldDiff> forward = Differ.diff(a, b, policy).stream().map(ReconcilerPropertiesTest::swap)
                .collect(Collectors.toSet());

        assertThat(new HashSet<>(Differ.diff(b, a, policy))).isEqualTo(forward);
    }

    @Property
    void anEmptyDiffMeansEqualTreesWithAtomicLists(@ForAll("specs") Object a, @ForAll("specs") Object b) {
        assertThat(Differ.diff(a, b, ReconcilePolicy.defaults()).isEmpty())
                .isEqualTo(Trees.deepEquals(a, b, false));
    }

    @Property
    void patchingByTheDiffsOwnValuesConvergesTheDiff(@ForAll("specs") Object a, @ForAll("specs") Object b,
                                                      @ForAll("policies") ReconcilePolicy policy) {
        List<PatchOp> patch = Differ.diff(a, b, policy).stream()
                .map(d -> d.kind() == DiffKind.UNEXPECTED ? PatchOp.remove(d.path()) : PatchOp.set(d.path(), d.desired()))
                .toList();

        assertThat(Differ.diff(a, Patches.apply(b, patch), policy)).isEmpty();
    }

    @Property
    void aReorderedKeyedListIsNoDiff(@ForAll("specs") Object spec, @ForAll long seed) {
        Object items = TreeArbitraries.keyedList(1).generator(10).next(new java.util.Random(seed)).value();
        List<Object> shuffled = new ArrayList<>((List<?>) items);
        Collections.shuffle(shuffled, new java.util.Random(seed));
        Object desired = with(spec, items);
        Object observed = with(spec, shuffled);

        assertThat(Differ.diff(desired, observed, TreeArbitraries.KEYED)).isEmpty();
        assertThat(ThreeWayMerge.merge(desired, observed, desired, TreeArbitraries.KEYED).patch()).isEmpty();
    }

    @Property
    void backoffNeverExceedsItsCap(@ForAll @LongRange(min = 0, max = 10_000_000) long baseMicros,
                                   @ForAll @LongRange(min = 0, max = 10_000_000_000L) long capMicros,
                                   @ForAll @IntRange(min = -1, max = 10_000) int attempt, @ForAll long seed) {
        Backoff backoff = new Backoff(Duration.ofNanos(baseMicros * 1000), Duration.ofNanos(capMicros * 1000));

        Duration delay = backoff.delay(attempt, new SplittableRandom(seed));

        assertThat(delay).isBetween(Duration.ZERO, backoff.cap());
        assertThat(delay.multipliedBy(2)).isGreaterThanOrEqualTo(backoff.ceiling(attempt));
        assertThat(backoff.ceiling(attempt + 1)).isGreaterThanOrEqualTo(backoff.ceiling(attempt));
    }

    @Property
    void pathsSurviveFormatAndParse(@ForAll("segments") List<String> segments) {
        FieldPath path = new FieldPath(segments);

        assertThat(FieldPath.parse(path.format())).isEqualTo(path);
    }

    @Provide
    Arbitrary<List<String>> segments() {
        Arbitrary<String> key = Arbitraries.strings().withChars("ab.[]\\=*x").ofMinLength(1).ofMaxLength(5)
                .filter(s -> !FieldPath.isBracketSegment(s) && !s.equals("*"));
        Arbitrary<String> keyed = Arbitraries.strings().withChars("ab.]\\=x").ofMaxLength(4)
                .map(v -> FieldPath.keySegment("name", v));
        return Arbitraries.oneOf(key, keyed, Arbitraries.integers().between(0, 99).map(FieldPath::indexSegment))
                .list().ofMaxSize(4);
    }

    private static Object with(Object spec, Object items) {
        Map<String, Object> m = new java.util.LinkedHashMap<>((Map<String, Object>) spec);
        m.put("items", items);
        return Trees.normalize(m);
    }

    private static FieldDiff swap(FieldDiff d) {
        DiffKind kind = switch (d.kind()) {
            case MISSING -> DiffKind.UNEXPECTED;
            case UNEXPECTED -> DiffKind.MISSING;
            default -> d.kind();
        };
        return new FieldDiff(d.path(), kind, d.observed(), d.desired());
    }
}
