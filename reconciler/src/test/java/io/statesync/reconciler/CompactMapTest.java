package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class CompactMapTest {

    @Property(tries = 300)
    void shouldBehaveAsALinkedHashMapForAnySequenceOfPuts(
            @ForAll @Size(max = 60) List<@IntRange(max = 40) Integer> keys) {
        LinkedHashMap<String, Object> expected = new LinkedHashMap<>();
        CompactMap.Builder<String, Object> builder = CompactMap.builder(3);
        for (int i = 0; i < keys.size(); i++) {
            String key = "k" + keys.get(i);
            Object value = i % 7 == 0 ? null : (long) i;
            expected.put(key, value);
            builder.put(key, value);
        }

        CompactMap<String, Object> map = builder.build();

        assertThat(map).isEqualTo(expected).hasSameHashCodeAs(expected);
        assertThat(new ArrayList<>(map.keySet())).containsExactlyElementsOf(expected.keySet());
        for (int probe = 0; probe <= 41; probe++) {
            String key = "k" + probe;
            assertThat(map.get(key)).isEqualTo(expected.get(key));
            assertThat(map.containsKey(key)).isEqualTo(expected.containsKey(key));
        }
        for (int i = 0; i < map.size(); i++) {
            assertThat(map.get(map.keyAt(i))).isEqualTo(map.valueAt(i));
        }
    }

    @Test
    void shouldFindKeysThroughItsIndexWhenLargerThanTheLinearLimit() {
        Map<String, Long> source = new HashMap<>();
        for (long i = 0; i < 1000; i++) {
            source.put("key-" + i, i);
        }

        CompactMap<String, Long> map = CompactMap.copyOf(source);

        assertThat(map).hasSize(1000).isEqualTo(source);
        assertThat(map.get("key-999")).isEqualTo(999L);
        assertThat(map.get("key-1000")).isNull();
        assertThat(map.containsKey(null)).isFalse();
    }

    @Test
    void shouldRefuseChanges() {
        CompactMap<String, Object> map = CompactMap.<String, Object>builder(1).put("a", 1L).build();

        assertThatThrownBy(() -> map.put("b", 2L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.entrySet().iterator().next().setValue(3L))
            .isInstanceOf(UnsupportedOperationException.class);
        assertThat(map).containsExactly(Map.entry("a", 1L));
    }

    @Test
    void shouldRefuseANullKeyAndABuilderUsedTwice() {
        CompactMap.Builder<String, Object> builder = CompactMap.builder(0);

        assertThatThrownBy(() -> builder.put(null, 1L)).isInstanceOf(NullPointerException.class);
        builder.build();
        assertThatThrownBy(() -> builder.put("a", 1L)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldReturnACompactMapItselfAsItsCopy() {
        CompactMap<String, Object> map = CompactMap.<String, Object>builder(1).put("a", 1L).build();

        assertThat(CompactMap.copyOf(map)).isSameAs(map);
    }
}
