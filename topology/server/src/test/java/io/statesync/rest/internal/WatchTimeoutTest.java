package io.statesync.rest.internal;

import java.util.Random;

import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How long a watch runs: the Kubernetes apiserver's choice, with watch.min.request.timeout.ms as its minimum. */
class WatchTimeoutTest {

    private static final long MIN_MS = 1_800_000;

    @Test
    void shouldEndAWatchWithoutTimeoutSecondsBetweenTheMinimumAndTwiceIt() {
        assertThat(new WatchTimeout(MIN_MS, () -> 0.0).durationMs(null)).isEqualTo(MIN_MS);
        assertThat(new WatchTimeout(MIN_MS, () -> 0.5).durationMs(null)).isEqualTo(MIN_MS * 3 / 2);
        assertThat(new WatchTimeout(MIN_MS, () -> Math.nextDown(1.0)).durationMs("")).isBetween(MIN_MS, 2 * MIN_MS);
        Random seeded = new Random(42);
        WatchTimeout timeouts = new WatchTimeout(MIN_MS, seeded::nextDouble);
        long least = Long.MAX_VALUE;
        long most = 0;
        for (int i = 0; i < 10_000; i++) {
            long ms = timeouts.durationMs(i % 2 == 0 ? null : " ");
            least = Math.min(least, ms);
            most = Math.max(most, ms);
        }
        assertThat(least).as("spread over the whole range").isBetween(MIN_MS, MIN_MS + MIN_MS / 100);
        assertThat(most).isBetween(2 * MIN_MS - MIN_MS / 100, 2 * MIN_MS);
    }

    @Test
    void shouldReadTimeoutSecondsZeroAsNoTimeoutAsTheApiserverDoes() {
        assertThat(new WatchTimeout(MIN_MS, () -> 0.25).durationMs("0")).isEqualTo(MIN_MS * 5 / 4);
    }

    @Test
    void shouldKeepAGivenTimeoutSecondsAsGivenEvenPastTwiceTheMinimum() {
        WatchTimeout timeouts = new WatchTimeout(MIN_MS, () -> 0.5);
        assertThat(timeouts.durationMs("5")).isEqualTo(5_000);
        assertThat(timeouts.durationMs(" 86400 ")).isEqualTo(86_400_000);
        assertThat(timeouts.deadline("10", 1_000)).isEqualTo(11_000);
    }

    @Test
    void shouldEndAWatchAtOnceForANegativeTimeoutSeconds() {
        assertThat(new WatchTimeout(MIN_MS, () -> 0.5).deadline("-3", 1_000)).isEqualTo(1_000);
    }

    @Test
    void shouldSaturateAHugeTimeoutSecondsInsteadOfOverflowingIntoThePast() {
        WatchTimeout timeouts = new WatchTimeout(MIN_MS, () -> 0.5);
        assertThat(timeouts.deadline(String.valueOf(Long.MAX_VALUE / 10), System.currentTimeMillis())).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldRefuseATimeoutSecondsThatIsNotAWholeNumberWith400() {
        WatchTimeout timeouts = new WatchTimeout(MIN_MS, () -> 0.5);
        for (String bad : new String[] {"abc", "1.5", "9999999999999999999999"}) {
            assertThatThrownBy(() -> timeouts.durationMs(bad)).as(bad).isInstanceOfSatisfying(ApiError.class,
                e -> assertThat(e.code()).isEqualTo(400));
        }
    }
}
