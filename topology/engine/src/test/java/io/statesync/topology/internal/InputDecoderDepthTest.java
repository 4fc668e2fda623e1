package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.statesync.avro.Value;
import io.statesync.testing.RandomValues;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InputDecoderDepthTest {

    @Test
    void shouldAgreeWithTheMeasuredDepthForRandomTreesAndLimits() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 2_000; i++) {
            Value tree = RandomValues.node(random, 1 + random.nextInt(6));
            int limit = 1 + random.nextInt(7);
            assertThat(InputDecoder.deeperThan(tree, limit)).as("tree %s, limit %d", tree, limit)
                .isEqualTo(InputDecoder.depth(tree) > limit);
        }
    }

    @Test
    void shouldCountEachValueOnTheLongestPathAsOneLevel() {
        assertThat(InputDecoder.deeperThan(chain(64), 64)).isFalse();
        assertThat(InputDecoder.deeperThan(chain(65), 64)).isTrue();
        assertThat(InputDecoder.deeperThan(null, 1)).isFalse();
    }

    @Test
    void shouldWalkAHostileTreeWithoutOverflowingTheStack() {
        Value deep = chain(200_000);

        assertThat(InputDecoder.deeperThan(deep, 64)).isTrue();
        assertThat(InputDecoder.deeperThan(deep, 10_000)).isTrue();
        assertThat(InputDecoder.deeperThan(chain(9_000), 10_000)).isFalse();
    }

    /** Levels Values in a line: maps and lists in turn, and a string at the bottom. */
    static Value chain(int levels) {
        Value v = new Value("leaf");
        for (int i = 1; i < levels; i++) {
            v = new Value(i % 2 == 0 ? List.of(v) : Map.of("a", v));
        }
        return v;
    }
}
