package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.statesync.avro.Value;
import io.statesync.testing.RandomValues;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OutputBudgetPathBytesTest {

    @Test
    void shouldAddEachLeafsKeysAndIndexesFromTheRoot() {
        Value spec = new Value(Map.of("image", new Value("nginx"),
            "ports", new Value(List.of(new Value(80L), new Value(443L)))));

        // "image" + 1, then "ports" + 1 and an index, twice
        assertThat(OutputBudget.pathBytes(spec, Long.MAX_VALUE)).isEqualTo(6 + 2 * (6 + 4));
    }

    @Test
    void shouldCountTheSameOnCompactAndDecodedMapsAndPastTheRecursionLimit() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 200; i++) {
            Value tree = RandomValues.node(random, 5);
            long asBuilt = OutputBudget.pathBytes(tree, Long.MAX_VALUE);
            CompactValues.compact(tree);
            assertThat(OutputBudget.pathBytes(tree, Long.MAX_VALUE)).as("tree %s", tree).isEqualTo(asBuilt);
        }
        Value deep = new Value("leaf");
        for (int d = 0; d < CompactValues.RECURSION_LIMIT + 10; d++) {
            deep = new Value(Map.of("k", deep));
        }
        assertThat(OutputBudget.pathBytes(deep, Long.MAX_VALUE)).isEqualTo(2L * (CompactValues.RECURSION_LIMIT + 10));
    }

    @Test
    void shouldStopOncePastTheLimit() {
        Value spec = new Value(Map.of("a", new Value(1L), "b", new Value(2L), "c", new Value(3L)));

        assertThat(OutputBudget.pathBytes(spec, 1)).isGreaterThan(1);
    }
}
