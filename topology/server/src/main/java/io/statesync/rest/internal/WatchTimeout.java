package io.statesync.rest.internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

import io.statesync.rest.ApiError;

/**
 * How long a watch runs, decided as the Kubernetes apiserver decides it: {@code timeoutSeconds} as given when it is not
 * zero (never capped; a negative one ends the watch at once), else a random time between
 * {@code watch.min.request.timeout.ms} and twice that. The bound gives a watch's slot under {@code watch.max.open}
 * back even when its client went silent without leaving; the random part keeps the clients that started together
 * from all coming back together.
 */
public final class WatchTimeout {

    private final long minRequestTimeoutMs;
    /** A number in [0, 1); the apiserver's rand.Float64. */
    private final DoubleSupplier unitRandom;

    WatchTimeout(long minRequestTimeoutMs, DoubleSupplier unitRandom) {
        this.minRequestTimeoutMs = minRequestTimeoutMs;
        this.unitRandom = unitRandom;
    }

    /** The server's: a fresh random time per watch. */
    static WatchTimeout withMinimum(long minRequestTimeoutMs) {
        return new WatchTimeout(minRequestTimeoutMs, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** The epoch-millis deadline of a watch asked for at {@code nowMs}; 400 when timeoutSeconds is not a whole number. */
    long deadline(String timeoutSeconds, long nowMs) {
        long ms = durationMs(timeoutSeconds);
        return ms > Long.MAX_VALUE - nowMs ? Long.MAX_VALUE : nowMs + ms;
    }

    /** How long the watch runs, in milliseconds. */
    long durationMs(String timeoutSeconds) {
        long seconds = seconds(timeoutSeconds);
        if (seconds < 0) {
            return 0;
        }
        if (seconds > 0) {
            return seconds > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : seconds * 1000;
        }
        // As in the apiserver, timeoutSeconds=0 is read as no timeout at all.
        double r = Math.min(Math.max(unitRandom.getAsDouble(), 0), 1);
        return minRequestTimeoutMs + (long) (minRequestTimeoutMs * r);
    }

    private static long seconds(String timeoutSeconds) {
        if (timeoutSeconds == null || timeoutSeconds.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(timeoutSeconds.trim());
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("timeoutSeconds must be a whole number");
        }
    }
}
