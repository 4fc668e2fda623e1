package io.statesync.view.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.ResourceView.Page;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchPosition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceIndexTest {

    @Test
    void shouldAnswerPointReadsWhileLoadingAndListInKeyOrderOnceSorted() {
        ResourceIndex index = new ResourceIndex();
        index.expect(5);
        index.loadFromBeginning(5);
        put(index, resource("k/n/c", 1));
        put(index, resource("k/n/a", 2));
        put(index, resource("k/n/b", 3));
        put(index, resource("k/n/a", 4));
        delete(index, "k/n/b");

        assertThat(index.get("k/n/a").version()).isEqualTo(4);
        assertThat(index.get("k/n/b")).isNull();
        assertThat(index.sortedLive()).isFalse();
        index.useSorted(index.sortLoad());

        assertThat(keys(index.page(r -> true, null, 10, new WatchPosition(new long[] {5})))).containsExactly("k/n/a", "k/n/c");
        put(index, resource("k/n/b", 6));
        assertThat(keys(index.page(r -> true, null, 10, new WatchPosition(new long[] {6})))).as("kept sorted from now on")
            .containsExactly("k/n/a", "k/n/b", "k/n/c");
        assertThat(index.size()).isEqualTo(3);
    }

    @Test
    void shouldAnswerPointReadsSizeAndPagesAlikeBeforeAndAfterTheLoadTurnsIntoTheSkipList() {
        ResourceIndex index = new ResourceIndex();
        index.expect(8);
        index.loadFromBeginning(8);
        for (String name : List.of("d", "b", "e", "a", "c")) {
            put(index, resource("k/n/" + name, 1));
        }
        delete(index, "k/n/e");
        delete(index, "k/n/zz");
        put(index, resource("k/n/b", 2));
        assertThat(index.size()).as("while loading").isEqualTo(4);

        index.useSorted(index.sortLoad());

        assertThat(index.size()).isEqualTo(4);
        assertThat(index.get("k/n/b").version()).isEqualTo(2);
        assertThat(index.get("k/n/e")).isNull();
        assertThat(keys(index.page(r -> true, null, 10, new WatchPosition(new long[] {8}))))
            .containsExactly("k/n/a", "k/n/b", "k/n/c", "k/n/d");
        put(index, resource("k/n/ab", 1));
        put(index, resource("k/n/c", 2));
        delete(index, "k/n/a");
        delete(index, "k/n/a");
        assertThat(index.size()).as("live changes after the switch").isEqualTo(4);
        assertThat(index.get("k/n/c").version()).isEqualTo(2);
        assertThat(index.get("k/n/a")).isNull();
        assertThat(keys(index.page(r -> true, "k/n/ab", 2, new WatchPosition(new long[] {12}))))
            .containsExactly("k/n/b", "k/n/c");
        assertThat(index.chunk(null, 10)).extracting(StoredResource::key).containsExactly("k/n/ab", "k/n/b", "k/n/c", "k/n/d");
    }

    @Test
    void shouldStartFromASnapshotsMapWithoutKeepingItAndFollowLiveChanges() {
        ResourceIndex index = new ResourceIndex();
        index.expect(3);
        TreeMap<String, StoredResource> snapshot = new TreeMap<>();
        for (String name : List.of("c", "a", "b")) {
            snapshot.put("k/n/" + name, resource("k/n/" + name, 1));
        }
        index.fill(snapshot);
        index.useSorted(snapshot);
        snapshot.clear();

        assertThat(index.sortedLive()).isTrue();
        assertThat(index.size()).isEqualTo(3);
        assertThat(index.get("k/n/b").version()).isEqualTo(1);
        delete(index, "k/n/b");
        put(index, resource("k/n/d", 2));
        assertThat(index.size()).isEqualTo(3);
        assertThat(index.get("k/n/b")).isNull();
        assertThat(keys(index.page(r -> true, null, 10, new WatchPosition(new long[] {2}))))
            .containsExactly("k/n/a", "k/n/c", "k/n/d");
        assertThat(index.sortedArray()).extracting(StoredResource::key).containsExactly("k/n/a", "k/n/c", "k/n/d");
    }

    @Test
    void shouldPageAfterAKeyWithTheFilterAndTheGivenPosition() {
        ResourceIndex index = new ResourceIndex();
        index.useSorted(new TreeMap<>());
        for (String name : List.of("a", "b", "c", "d", "e")) {
            put(index, resource("k/n/" + name, 1));
        }
        WatchPosition position = new WatchPosition(new long[] {7, 9});

        Page first = index.page(r -> !r.key().equals("k/n/b"), null, 2, position);
        Page last = index.page(r -> !r.key().equals("k/n/b"), first.nextKey(), 2, position);

        assertThat(keys(first)).containsExactly("k/n/a", "k/n/c");
        assertThat(first.nextKey()).isEqualTo("k/n/c");
        assertThat(first.position()).isSameAs(position);
        assertThat(keys(last)).containsExactly("k/n/d", "k/n/e");
        assertThat(last.nextKey()).isNull();
    }

    @Test
    void shouldSwapInOnlyWhatHasNotChangedSinceTheWrite() {
        ResourceIndex index = new ResourceIndex();
        TreeMap<String, StoredResource> snapshot = new TreeMap<>();
        for (String name : List.of("a", "b", "c")) {
            snapshot.put("k/n/" + name, resource("k/n/" + name, 1));
        }
        assertThat(index.fill(snapshot)).isEqualTo(3 * 4);
        index.useSorted(snapshot);
        StoredResource[] written = index.sortedArray();
        StoredResource[] mapped = {resource("k/n/a", 1), resource("k/n/b", 1), resource("k/n/c", 1)};
        put(index, resource("k/n/b", 2));
        List<StoredResource> swapped = new ArrayList<>();

        assertThat(index.swapIn(written, mapped, swapped::add)).isEqualTo(2);

        assertThat(swapped).containsExactly(written[0], written[2]);
        assertThat(index.get("k/n/a")).isSameAs(mapped[0]);
        assertThat(index.get("k/n/b").version()).isEqualTo(2);
        assertThat(index.sortedValues()).containsExactly(mapped[0], index.get("k/n/b"), mapped[2]);
        assertThat(index.page(r -> true, null, 10, new WatchPosition(new long[] {3})).items())
            .containsExactly(mapped[0], index.get("k/n/b"), mapped[2]);
    }

    @Test
    void shouldNotBringBackAKeyDeletedSinceTheWriteWhenSwappingIn() {
        ResourceIndex index = new ResourceIndex();
        index.useSorted(new TreeMap<>());
        for (String name : List.of("a", "b", "c")) {
            put(index, resource("k/n/" + name, 1));
        }
        StoredResource[] written = index.sortedArray();
        StoredResource[] mapped = {resource("k/n/a", 1), resource("k/n/b", 1), resource("k/n/c", 1)};
        delete(index, "k/n/b");
        List<StoredResource> swapped = new ArrayList<>();

        assertThat(index.swapIn(written, mapped, swapped::add)).isEqualTo(2);

        assertThat(swapped).containsExactly(written[0], written[2]);
        assertThat(index.get("k/n/b")).isNull();
        assertThat(index.size()).isEqualTo(2);
        assertThat(index.sortedValues()).containsExactly(mapped[0], mapped[2]);
    }

    @Test
    void shouldCutAPageShortOnceItsBytesPassTheBudgetAndSayWhereTheNextStarts() {
        ResourceIndex index = new ResourceIndex();
        index.useSorted(new TreeMap<>());
        for (String name : new String[] {"a", "b", "c", "d", "e"}) {
            put(index, resource("k/n/" + name, 1));
        }
        // Each resource stores a 5-character key and 4 value bytes: 9 bytes; 20 hold two of them.
        Page first = index.page(r -> true, null, 10, 20, new WatchPosition(new long[] {1}));
        assertThat(keys(first)).containsExactly("k/n/a", "k/n/b");
        assertThat(first.nextKey()).isEqualTo("k/n/b");
        Page rest = index.page(r -> true, first.nextKey(), 10, 1, new WatchPosition(new long[] {1}));
        assertThat(keys(rest)).as("the first resource always fits, so paging moves on").containsExactly("k/n/c");
        assertThat(rest.nextKey()).isEqualTo("k/n/c");
        assertThat(index.page(r -> true, null, 10, 1_000, new WatchPosition(new long[] {1})).nextKey()).isNull();
    }

    private static void put(ResourceIndex index, StoredResource now) {
        index.put(now.key(), index.get(now.key()), now);
    }

    private static void delete(ResourceIndex index, String key) {
        index.put(key, index.get(key), null);
    }

    private static List<String> keys(Page page) {
        return page.items().stream().map(StoredResource::key).toList();
    }

    private static StoredResource resource(String key, long version) {
        return StoredResource.of(key, new byte[4], new ResourceSummary(version, SyncStatus.Synced, false), null);
    }
}
