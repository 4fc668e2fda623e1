package io.statesync.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class LatencyModelTest {

    @Test
    void shouldParseEveryDistribution() {
        SplittableRandom random = new SplittableRandom(1);
        assertThat(LatencyModel.parse("zero").next(random)).isZero();
        assertThat(LatencyModel.parse("fixed:25ms").next(random)).isEqualTo(Duration.ofMillis(25));
        assertThat(LatencyModel.parse("2s").next(random)).isEqualTo(Duration.ofSeconds(2));
        assertThat(LatencyModel.parse("uniform:10ms").next(random)).isBetween(Duration.ZERO, Duration.ofMillis(20));
        assertThat(LatencyModel.parse("exponential:10ms").next(random).isNegative()).isFalse();
    }

    @Test
    void shouldRejectAnUnknownDistribution() {
        assertThatThrownBy(() -> LatencyModel.parse("gamma:10ms")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldHaveTheRequestedMean() {
        SplittableRandom random = new SplittableRandom(3);
        for (LatencyModel model : new LatencyModel[] {LatencyModel.uniform(Duration.ofMillis(10)),
            LatencyModel.exponential(Duration.ofMillis(10))}) {
            double meanMs = 0;
            for (int i = 0; i < 20_000; i++) {
                meanMs += model.next(random).toNanos() / 1e6 / 20_000;
            }
            assertThat(meanMs).isBetween(9.5, 10.5);
        }
    }
}
