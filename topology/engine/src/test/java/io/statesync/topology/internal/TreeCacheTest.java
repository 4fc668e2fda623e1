package io.statesync.topology.internal;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.avro.Value;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TreeCacheTest {

    private final TreeCache cache = new TreeCache();
    private final AtomicInteger conversions = new AtomicInteger();

    private Object tree(Value v) {
        return cache.tree(v, x -> {
            conversions.incrementAndGet();
            return Values.toJava(x);
        });
    }

    @Test
    void shouldConvertAnInstanceOnlyOnce() {
        Value spec = Values.fromJava(Map.of("image", "nginx:1.21", "replicas", 3L));

        Object first = tree(spec);
        Object second = tree(spec);

        assertThat(second).isSameAs(first).isEqualTo(Map.of("image", "nginx:1.21", "replicas", 3L));
        assertThat(conversions).hasValue(1);
    }

    @Test
    void shouldConvertAnEqualButDistinctInstanceAgain() {
        Value a = Values.fromJava(Map.of("replicas", 3L));
        Value b = Values.fromJava(Map.of("replicas", 4L));
        Value aAgain = Values.fromJava(Map.of("replicas", 3L));

        assertThat(tree(a)).isEqualTo(Map.of("replicas", 3L));
        assertThat(tree(b)).isEqualTo(Map.of("replicas", 4L));
        assertThat(tree(aAgain)).isEqualTo(Map.of("replicas", 3L));
        assertThat(conversions).hasValue(3);
    }
}
