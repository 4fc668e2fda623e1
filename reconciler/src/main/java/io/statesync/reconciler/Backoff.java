package io.statesync.reconciler;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with equal jitter: for attempt {@code n} (from 1) the ceiling is
 * {@code min(cap, base * 2^(n-1))} and the delay is uniform in {@code [ceiling/2, ceiling]}. Equal jitter keeps at
 * least half of the exponential delay, so a fleet of failing keys spreads out without any retry firing at once, and
 * the delay never exceeds the cap. With client-go's defaults (5 ms, 1000 s) the ceiling reaches the cap at attempt 19.
 */
public record Backoff(Duration base, Duration cap) {
    public Backoff {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(cap, "cap");
        if (base.isNegative() || cap.isNegative()) {
            throw new IllegalArgumentException("base and cap must not be negative");
        }
    }

    public static Backoff of(ReconcilePolicy policy) {
        return new Backoff(policy.backoffBase(), policy.backoffCap());
    }

    /** The ceiling for an attempt before jitter: {@code min(cap, base * 2^(attempt-1))}. Attempts below 1 count as 1. */
    public Duration ceiling(int attempt) {
        long capNanos = saturatedNanos(cap);
        long baseNanos = Math.min(saturatedNanos(base), capNanos);
        int shift = Math.max(attempt, 1) - 1;
        if (baseNanos == 0) {
            return Duration.ZERO;
        }
        if (shift >= Long.numberOfLeadingZeros(baseNanos) - 1) {
            return Duration.ofNanos(capNanos);
        }
        return Duration.ofNanos(Math.min(capNanos, baseNanos << shift));
    }

    /** The delay before retrying after {@code attempt} failed; deterministic for a given random source state. */
    public Duration delay(int attempt, RandomGenerator rnd) {
        long ceiling = ceiling(attempt).toNanos();
        long half = ceiling / 2;
        long jitter = ceiling - half == 0 ? 0 : rnd.nextLong(ceiling - half + 1);
        return Duration.ofNanos(half + jitter);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
