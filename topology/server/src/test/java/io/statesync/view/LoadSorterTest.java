package io.statesync.view;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LoadSorterTest {

    /** One record of the catch-up: the key's new resource, or its deletion. */
    record Write(String key, boolean delete) {
    }

    @Property(tries = 300)
    void shouldHoldTheLatestResourceOfEveryKeyInKeyOrder(@ForAll("writeLists") List<Write> writes) {
        LoadSorter sorter = LoadSorter.forRecords(writes.size());
        Map<String, StoredResource> latest = feed(sorter, writes);

        assertThat(new TreeMap<>(sorter.sorted())).containsExactlyEntriesOf(new TreeMap<>(latest));
    }

    /**
     * Keys from a few characters, so that keys written twice, equal packed windows and keys that are prefixes of each
     * other are common; on one of a few shared prefixes; long enough to run past the 24 packed characters.
     */
    @Provide
    Arbitrary<List<Write>> writeLists() {
        Arbitrary<String> prefix = Arbitraries.of("", "WebApp/ns-", "Kind/a-very-long-namespace-name/");
        Arbitrary<String> tail = Arbitraries.strings().withChars('a', 'b', '-', '0', 'z', '\u00e9', '\u0000')
            .ofMinLength(0).ofMaxLength(30);
        Arbitrary<Boolean> delete = Arbitraries.integers().between(0, 5).map(i -> i == 0);
        return prefix.flatMap(p -> Combinators.combine(tail.map(t -> p + t), delete).as(Write::new)
            .list().ofMinSize(0).ofMaxSize(80));
    }

    @Test
    void shouldSortKeysPastThePrefixSampleThatShareLessOfIt() {
        List<Write> writes = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            writes.add(new Write("WebApp/default/app-" + (i * 7919 % 3_000), false));
        }
        // Past the 1,024 keys that suggest the prefix, keys that do not share it, and rewrites of earlier keys.
        writes.add(new Write("WebApp/aaa-long-name-zzzz", false));
        writes.add(new Write("Other/default/x", false));
        writes.add(new Write("WebApp/default/app-17", true));
        writes.add(new Write("WebApp/default/app-18", false));
        LoadSorter sorter = LoadSorter.forRecords(writes.size());
        Map<String, StoredResource> latest = feed(sorter, writes);

        TreeMap<String, StoredResource> tree = new TreeMap<>(sorter.sorted());

        assertThat(tree).containsExactlyEntriesOf(new TreeMap<>(latest));
        assertThat(tree.firstKey()).isEqualTo("Other/default/x");
        assertThat(tree).doesNotContainKey("WebApp/default/app-17");
    }

    @Test
    void shouldGiveUpWhenMoreRecordsComeThanItHasRoomFor() {
        LoadSorter sorter = LoadSorter.forRecords(0);
        boolean kept = true;
        for (int i = 0; i < 1_025 && kept; i++) {
            kept = sorter.add("k/n/" + i, StoredResource.absent("k/n/" + i));
        }

        assertThat(kept).isFalse();
        assertThat(sorter.sorted()).isNull();
        assertThat(sorter.add("k/n/x", StoredResource.absent("k/n/x"))).isFalse();
    }

    @Test
    void shouldNotTakeOnMoreRecordsThanItsBound() {
        assertThat(LoadSorter.forRecords(LoadSorter.MAX_SLOTS)).isNull();
        assertThat(LoadSorter.forRecords(1_000)).isNotNull();
    }

    @Test
    void shouldGiveUpOnAKeyAboveLatin1() {
        LoadSorter sorter = LoadSorter.forRecords(2);
        sorter.add("k/n/\u4e2d", StoredResource.absent("k/n/\u4e2d"));
        sorter.add("k/n/b", StoredResource.absent("k/n/b"));

        assertThat(sorter.sorted()).isNull();
    }

    @Test
    void shouldGiveUpOnAKeyAboveLatin1PastThePrefixSample() {
        LoadSorter sorter = LoadSorter.forRecords(2_000);
        for (int i = 0; i < 1_500; i++) {
            sorter.add("k/n/" + i, StoredResource.absent("k/n/" + i));
        }

        assertThat(sorter.add("k/n/\u4e2d", StoredResource.absent("k/n/\u4e2d"))).isFalse();
        assertThat(sorter.sorted()).isNull();
    }

    /** Adds each write as the view does, the key's string shared by its writes; returns what the view's map then holds. */
    private static Map<String, StoredResource> feed(LoadSorter sorter, List<Write> writes) {
        Map<String, StoredResource> latest = new HashMap<>();
        Map<String, String> canonical = new HashMap<>();
        for (Write w : writes) {
            String key = canonical.computeIfAbsent(w.key(), k -> k);
            StoredResource previous = latest.get(key);
            StoredResource res = w.delete() ? null : StoredResource.absent(key);
            if (res == null) {
                latest.remove(key);
                canonical.remove(key);
            } else {
                latest.put(key, res);
            }
            if (res != null || previous != null) {
                assertThat(sorter.add(key, res)).isTrue();
            }
        }
        return latest;
    }
}
