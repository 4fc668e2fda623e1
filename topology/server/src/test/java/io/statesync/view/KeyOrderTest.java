package io.statesync.view;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeyOrderTest {

    @Property(tries = 300)
    void shouldOrderKeysAsStringCompareToDoes(@ForAll("keyLists") List<String> keys) {
        StoredResource[] resources = keys.stream().map(StoredResource::absent).toArray(StoredResource[]::new);
        StoredResource[] expected = resources.clone();
        Arrays.sort(expected, Comparator.comparing(StoredResource::key));

        KeyOrder.sort(resources);

        // Keys may repeat here: equal keys are interchangeable, so compare keys, and the multiset of instances.
        assertThat(Arrays.stream(resources).map(StoredResource::key)).containsExactly(
            Arrays.stream(expected).map(StoredResource::key).toArray(String[]::new));
        assertThat(resources).containsExactlyInAnyOrder(expected);
    }

    /**
     * Keys from a few characters (so that long shared stretches, equal packed windows and prefixes of each other are
     * common), on one of a few shared prefixes, and long enough to run past the 24 packed characters.
     */
    @Provide
    Arbitrary<List<String>> keyLists() {
        Arbitrary<String> prefix = Arbitraries.of("", "WebApp/ns-", "WebApp/default/app-", "Kind/a-very-long-namespace-name/");
        Arbitrary<String> tail = Arbitraries.strings().withChars('a', 'b', '-', '/', '0', '9', 'z', '\u00e9', '\u0000')
            .ofMinLength(0).ofMaxLength(40);
        return prefix.flatMap(p -> tail.map(t -> p + t).list().ofMinSize(0).ofMaxSize(60));
    }

    @Test
    void shouldSortKeysThatDifferOnlyPastThePackedCharacters() {
        String head = "WebApp/default/" + "x".repeat(30);
        StoredResource[] resources = {StoredResource.absent(head + "b"), StoredResource.absent(head + "a"),
            StoredResource.absent(head), StoredResource.absent("WebApp/default/a")};

        KeyOrder.sort(resources);

        assertThat(Arrays.stream(resources).map(StoredResource::key))
            .containsExactly("WebApp/default/a", head, head + "a", head + "b");
    }

    @Test
    void shouldFallBackToAPlainSortForCharactersAboveLatin1() {
        StoredResource[] resources = {StoredResource.absent("k/n/\u4e2d"), StoredResource.absent("k/n/b"),
            StoredResource.absent("k/n/\u00ff")};

        KeyOrder.sort(resources);

        assertThat(Arrays.stream(resources).map(StoredResource::key)).containsExactly("k/n/b", "k/n/\u00ff", "k/n/\u4e2d");
    }

    @Test
    void shouldFindThePrefixEveryKeyShares() {
        StoredResource[] resources = {StoredResource.absent("WebApp/ns-1/a"), StoredResource.absent("WebApp/ns-12/b"),
            StoredResource.absent("WebApp/ns-1")};

        assertThat(KeyOrder.sharedPrefix(resources, 3)).isEqualTo("WebApp/ns-1".length());
        assertThat(KeyOrder.sharedPrefix(resources, 2)).isEqualTo("WebApp/ns-1".length());
        assertThat(KeyOrder.sharedPrefix(resources, 1)).isEqualTo("WebApp/ns-1/a".length());
    }

    @Test
    void shouldSortWhenAKeyPastThePrefixSampleSharesLessOfIt() {
        StoredResource[] resources = new StoredResource[2_000];
        for (int i = 0; i < resources.length - 1; i++) {
            resources[i] = StoredResource.absent("WebApp/default/app-" + (10_000 - i));
        }
        resources[resources.length - 1] = StoredResource.absent("WebApp/aaa-long-name-zzzz");
        StoredResource[] expected = resources.clone();
        Arrays.sort(expected, Comparator.comparing(StoredResource::key));

        KeyOrder.sort(resources);

        assertThat(resources).containsExactly(expected);
        assertThat(resources[0].key()).isEqualTo("WebApp/aaa-long-name-zzzz");
    }
}
