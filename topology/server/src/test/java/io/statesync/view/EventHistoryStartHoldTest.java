package io.statesync.view;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The event history's read-back waits for its start condition, but never past its hold. */
class EventHistoryStartHoldTest {

    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger pauses = new AtomicInteger();

    private EventHistory.Pause tick(long nanos) {
        return () -> {
            pauses.incrementAndGet();
            now.addAndGet(nanos);
        };
    }

    @Test
    void shouldStartAtOnceWhenTheConditionAlreadyHolds() {
        assertThat(EventHistory.awaitStart(() -> true, Duration.ofSeconds(30), now::get, tick(1))).isTrue();
        assertThat(pauses).as("no pause when nothing is to wait for").hasValue(0);
    }

    @Test
    void shouldWaitUntilTheConditionHolds() {
        AtomicInteger checks = new AtomicInteger();
        boolean met = EventHistory.awaitStart(() -> checks.incrementAndGet() > 3, Duration.ofSeconds(30), now::get,
            tick(Duration.ofMillis(50).toNanos()));
        assertThat(met).isTrue();
        assertThat(pauses).as("one pause per failed check").hasValue(3);
    }

    @Test
    void shouldStopWaitingAtTheHoldsEndWhenTheConditionNeverHolds() {
        boolean met = EventHistory.awaitStart(() -> false, Duration.ofSeconds(30), now::get, tick(Duration.ofMillis(50).toNanos()));
        assertThat(met).isFalse();
        assertThat(now.get()).as("waited the hold, not longer").isEqualTo(Duration.ofSeconds(30).toNanos());
    }

    @Test
    void shouldStopWaitingWhenInterrupted() {
        boolean met = EventHistory.awaitStart(() -> false, Duration.ofSeconds(30), now::get, () -> {
            throw new InterruptedException();
        });
        assertThat(met).isFalse();
        assertThat(Thread.interrupted()).as("the interrupt is kept for the loop").isTrue();
    }
}
