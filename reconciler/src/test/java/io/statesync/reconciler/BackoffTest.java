package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private final Backoff defaults = Backoff.of(ReconcilePolicy.defaults());

    @Test
    void shouldFollowClientGoDefaults() {
        assertThat(defaults.base()).isEqualTo(Duration.ofMillis(5));
        assertThat(defaults.cap()).isEqualTo(Duration.ofSeconds(1000));
    }

    @Test
    void shouldDoubleTheCeilingPerAttemptUpToTheCap() {
        assertThat(defaults.ceiling(1)).isEqualTo(Duration.ofMillis(5));
        assertThat(defaults.ceiling(2)).isEqualTo(Duration.ofMillis(10));
        assertThat(defaults.ceiling(10)).isEqualTo(Duration.ofMillis(2560));
        assertThat(defaults.ceiling(18)).isEqualTo(Duration.ofMillis(655_360));
        assertThat(defaults.ceiling(19)).isEqualTo(Duration.ofSeconds(1000));
        assertThat(defaults.ceiling(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(1000));
    }

    @Test
    void shouldTreatAttemptsBelowOneAsTheFirst() {
        assertThat(defaults.ceiling(0)).isEqualTo(defaults.ceiling(1));
    }

    @Test
    void shouldJitterBetweenHalfTheCeilingAndTheCeiling() {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 1000; i++) {
            Duration d = defaults.delay(4, rnd);
            assertThat(d).isBetween(Duration.ofMillis(20), Duration.ofMillis(40));
        }
    }

    @Test
    void shouldBeDeterministicForASeededSource() {
        assertThat(defaults.delay(7, new SplittableRandom(42))).isEqualTo(defaults.delay(7, new SplittableRandom(42)));
    }

    @Test
    void shouldNeverExceedACapSmallerThanTheBase() {
        Backoff b = new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(1));

        assertThat(b.delay(1, new SplittableRandom(3))).isLessThanOrEqualTo(Duration.ofSeconds(1));
    }
}
