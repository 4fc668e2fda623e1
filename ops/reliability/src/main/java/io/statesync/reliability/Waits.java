package io.statesync.reliability;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded polling: every wait in a scenario has a deadline, so a broken pipeline fails a run instead of hanging it. */
final class Waits {

    private Waits() {
    }

    /** Polls until the condition holds or the timeout passes; returns whether it held. */
    static boolean until(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            sleep(50);
        }
        return condition.getAsBoolean();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
