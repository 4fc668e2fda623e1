package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FieldPathTest {

    @Test
    void shouldRenderKeyedItemsInBrackets() {
        FieldPath p = FieldPath.of("containers", FieldPath.keySegment("name", "web"), "image");

        assertThat(p.format()).isEqualTo("containers[name=web].image");
        assertThat(FieldPath.parse("containers[name=web].image")).isEqualTo(p);
    }

    @Test
    void shouldEscapeSpecialCharactersInMapKeys() {
        FieldPath p = FieldPath.of("metadata", "app.kubernetes.io/name", "a[b]", "back\\slash");

        assertThat(p.format()).isEqualTo("metadata.app\\.kubernetes\\.io/name.a\\[b\\].back\\\\slash");
        assertThat(FieldPath.parse(p.format())).isEqualTo(p);
    }

    @Test
    void shouldParseTheEmptyStringAsTheRoot() {
        assertThat(FieldPath.parse("")).isEqualTo(FieldPath.root());
        assertThat(FieldPath.root().format()).isEmpty();
    }

    @Test
    void shouldRejectMalformedPaths() {
        assertThatThrownBy(() -> FieldPath.parse("a..b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FieldPath.parse("a[name=x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FieldPath.parse("a.")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldMatchWildcardsAgainstMapKeysAndListItems() {
        FieldPath pattern = FieldPath.parse("containers.*.resources");

        assertThat(FieldPath.parse("containers[name=web].resources").matches(pattern)).isTrue();
        assertThat(FieldPath.parse("containers[3].resources").matches(pattern)).isTrue();
        assertThat(FieldPath.parse("containers.web.resources").matches(pattern)).isTrue();
        assertThat(FieldPath.parse("containers[name=web].image").matches(pattern)).isFalse();
        assertThat(FieldPath.parse("containers[name=web].resources.cpu").matches(pattern)).isFalse();
        assertThat(FieldPath.parse("containers[name=web].resources.cpu").isWithin(pattern)).isTrue();
    }

    @Test
    void shouldNavigateParentsAndChildren() {
        FieldPath p = FieldPath.parse("a.b");

        assertThat(p.child("c").segments()).isEqualTo(List.of("a", "b", "c"));
        assertThat(p.parent()).isEqualTo(FieldPath.of("a"));
        assertThat(p.last()).isEqualTo("b");
        assertThatThrownBy(() -> FieldPath.root().parent()).isInstanceOf(IllegalStateException.class);
    }
}
