package io.statesync.view;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SortedRunTest {

    @Test
    void shouldBuildTheSameTreeAsOneByOneInsertsWhenPutAllIntoAnEmptyTree() {
        List<StoredResource> shuffled = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            shuffled.add(StoredResource.absent("WebApp/ns-" + (i % 7) + "/app-" + i));
        }
        Collections.shuffle(shuffled, new java.util.Random(7));
        TreeMap<String, StoredResource> oneByOne = new TreeMap<>();
        shuffled.forEach(r -> oneByOne.put(r.key(), r));
        StoredResource[] sorted = shuffled.toArray(new StoredResource[0]);
        Arrays.sort(sorted, Comparator.comparing(StoredResource::key));

        TreeMap<String, StoredResource> built = new TreeMap<>();
        built.putAll(new SortedRun(sorted));

        assertThat(built).containsExactlyEntriesOf(oneByOne);
        assertThat(built.firstKey()).isEqualTo("WebApp/ns-0/app-0");
        assertThat(built.tailMap("WebApp/ns-6/app-986", false).keySet()).containsExactly("WebApp/ns-6/app-993");
        // The tree stays usable after the bulk build: later records are single puts and removes.
        built.remove("WebApp/ns-0/app-0");
        built.put("Aaa/x/y", StoredResource.absent("Aaa/x/y"));
        assertThat(built.firstKey()).isEqualTo("Aaa/x/y");
    }

    @Test
    void shouldBuildATreeInKeyOrderFromResourcesInAnyOrder() {
        List<StoredResource> unordered = List.of(StoredResource.absent("b/x/2"), StoredResource.absent("a/y/9"),
            StoredResource.absent("b/x/10"));
        TreeMap<String, StoredResource> tree = new TreeMap<>(SortedRun.sortedOf(unordered));
        assertThat(tree.keySet()).containsExactly("a/y/9", "b/x/10", "b/x/2");
        assertThat(tree.get("a/y/9")).isSameAs(unordered.get(1));
        assertThat(SortedRun.sortedOf(List.of())).isEmpty();
    }

    @Test
    void shouldBuildATreeFromResourcesAlreadyInKeyOrderAndRefuseThemOutOfOrderOrTwice() {
        StoredResource a = StoredResource.absent("a/y/9");
        StoredResource b = StoredResource.absent("b/x/10");
        StoredResource c = StoredResource.absent("b/x/2");
        TreeMap<String, StoredResource> tree = SortedRun.treeOfSorted(new StoredResource[] {a, b, c});
        assertThat(tree.keySet()).containsExactly("a/y/9", "b/x/10", "b/x/2");
        assertThat(tree.get("b/x/10")).isSameAs(b);
        assertThatThrownBy(() -> SortedRun.treeOfSorted(new StoredResource[] {a, c, b})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SortedRun.treeOfSorted(new StoredResource[] {a, a})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldReportItsEdgesAndRefuseEdgesWhenEmpty() {
        SortedRun run = new SortedRun(new StoredResource[] {StoredResource.absent("a/b/c"), StoredResource.absent("a/b/d")});
        assertThat(run.firstKey()).isEqualTo("a/b/c");
        assertThat(run.lastKey()).isEqualTo("a/b/d");
        assertThat(run.comparator()).isNull();
        assertThatThrownBy(() -> new SortedRun(new StoredResource[0]).firstKey()).isInstanceOf(NoSuchElementException.class);
    }
}
