package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.statesync.avro.Value;
import io.statesync.reconciler.Trees;
import io.statesync.schemas.Values;
import io.statesync.testing.RandomValues;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrozenTreesTest {

    @Test
    void shouldEqualTheNormalisedPlainTreeForRandomValues() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 300; i++) {
            Value v = RandomValues.node(random, 4);
            assertThat(FrozenTrees.of(v)).as("value %s", v).isEqualTo(Trees.normalize(Values.toJava(v)));
        }
    }

    @Test
    void shouldNeedNoCopyWhenTheReconcilerNormalisesIt() {
        Object tree = FrozenTrees.of(RandomValues.node(new SplittableRandom(5), 5));

        assertThat(Trees.normalize(tree)).isSameAs(tree);
    }

    @Test
    void shouldWidenHandBuiltIntegersAsTheGeneralPathDoes() {
        Value v = new Value(Map.of("replicas", new Value(3)));

        assertThat(FrozenTrees.of(v)).isEqualTo(Map.of("replicas", 3L));
    }

    @Test
    void shouldRefuseAListItemThatIsNotAValue() {
        Value v = new Value(List.of("not a Value"));

        assertThatThrownBy(() -> FrozenTrees.of(v)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldFreezeACompactRootOnceAndHandBackTheSameTreeAfterThat() {
        Value spec = new Value(Map.of("image", new Value("nginx:1.25"), "env",
            new Value(Map.of("LOG_LEVEL", new Value("info")))));
        CompactValues.compact(spec);

        Object first = FrozenTrees.ofRoot(spec);
        Object second = FrozenTrees.ofRoot(spec);

        assertThat(first).isEqualTo(FrozenTrees.of(spec)).isEqualTo(Map.of("image", "nginx:1.25", "env", Map.of("LOG_LEVEL", "info")));
        assertThat(second).isSameAs(first);
    }

    @Test
    void shouldFreezeAnyOtherRootAfresh() {
        Value list = new Value(List.of(new Value("a")));
        Value hashed = new Value(new java.util.HashMap<>(Map.of("a", new Value(1L))));

        assertThat(FrozenTrees.ofRoot(list)).isNotSameAs(FrozenTrees.ofRoot(list)).isEqualTo(List.of("a"));
        assertThat(FrozenTrees.ofRoot(hashed)).isNotSameAs(FrozenTrees.ofRoot(hashed)).isEqualTo(Map.of("a", 1L));
    }
}
