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
}
