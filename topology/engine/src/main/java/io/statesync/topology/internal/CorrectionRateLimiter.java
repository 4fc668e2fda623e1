package io.statesync.topology.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * A token bucket per kind for the corrections of one stream task, refilled by the wall-clock time the reconciles run
 * at. It lives in memory only: a task's keys are its own, so no other task shares its buckets, and a restarted task
 * starts with full buckets, which at worst lets one burst through early. A rate of 0 limits nothing.
 */
final class CorrectionRateLimiter {

    private final double perMilli;
    private final double burst;
    private final Map<String, Bucket> buckets = new HashMap<>();

    CorrectionRateLimiter(double perSecond, int burst) {
        this.perMilli = perSecond / 1000.0;
        this.burst = burst;
    }

    /** Tokens left and when they were last counted. */
    private static final class Bucket {
        double tokens;
        long at;

        Bucket(double tokens, long at) {
            this.tokens = tokens;
            this.at = at;
        }
    }

    /**
     * Takes a token of {@code kind} at {@code now} and returns 0, or, when the bucket is empty, takes none and returns
     * the epoch millisecond at which the next token is due.
     */
    long acquire(String kind, long now) {
        if (perMilli <= 0) {
            return 0;
        }
        Bucket b = buckets.computeIfAbsent(kind, k -> new Bucket(burst, now));
        if (now > b.at) {
            b.tokens = Math.min(burst, b.tokens + (now - b.at) * perMilli);
            b.at = now;
        }
        if (b.tokens >= 1.0) {
            b.tokens -= 1.0;
            return 0;
        }
        // Rounded up and at least a millisecond later, so that the timer never fires before the token is there.
        return now + Math.max(1L, (long) Math.ceil((1.0 - b.tokens) / perMilli));
    }
}
