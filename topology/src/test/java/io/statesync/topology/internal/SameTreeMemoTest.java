package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;

import io.statesync.avro.Value;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SameTreeMemoTest {

    private static Value spec(long replicas) {
        return Values.fromJava(Map.of("image", "nginx:1.21", "replicas", replicas, "env", Map.of("ENV", "prod"),
            "ports", List.of(80L, 443L)));
    }

    @Test
    void shouldAnswerAsAWalkDoesForEqualAndDifferentTrees() {
        Value a = spec(3);
        Value equal = spec(3);
        Value different = spec(4);

        assertThat(SameTreeMemo.sameTree(a, equal)).isTrue();
        assertThat(SameTreeMemo.sameTree(a, different)).isFalse();
        assertThat(SameTreeMemo.sameTree(a, equal)).as("asked again").isTrue();
        assertThat(SameTreeMemo.sameTree(a, different)).as("asked again").isFalse();
        assertThat(SameTreeMemo.sameTree(a, a)).isTrue();
        assertThat(SameTreeMemo.sameTree(a, null)).isFalse();
        assertThat(SameTreeMemo.sameTree(null, null)).isTrue();
    }

    @Test
    void shouldTakeARememberedAnswerWithoutWalking() {
        Value a = spec(3);
        Value b = spec(3);

        // Only a remembered answer can make two equal trees read as different: the memo, not a walk, answered.
        SameTreeMemo.rememberDifferent(a, b);

        assertThat(SameTreeMemo.sameTree(a, b)).isFalse();
        assertThat(SameTreeMemo.sameTree(b, a)).as("another pair").isTrue();
    }
}
