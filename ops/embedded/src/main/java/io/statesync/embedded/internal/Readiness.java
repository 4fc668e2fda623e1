package io.statesync.embedded.internal;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls until a starting service answers, giving up early when the service can no longer come up. */
final class Readiness {
    private static final Duration POLL = Duration.ofMillis(100);

    private Readiness() {
    }

    /**
     * @param what the service, for the error message
     * @param stillStarting false once waiting is pointless (its process died)
     * @param ready one probe; it should return quickly
     * @throws IllegalStateException on timeout or when {@code stillStarting} turns false
     */
    static void await(String what, Duration timeout, BooleanSupplier stillStarting, BooleanSupplier ready) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (stillStarting.getAsBoolean()) {
            if (ready.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " not ready within " + timeout);
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what, e);
            }
        }
        throw new IllegalStateException(what + " stopped while starting");
    }
}
