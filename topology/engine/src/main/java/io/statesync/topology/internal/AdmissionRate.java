package io.statesync.topology.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many records this instance's admission processes per second, across its tasks and stream threads: the
 * records of the last whole second, or of the current one when it already has more. Commits on request stop above
 * {@code admission.commit.max.rate}, where each commit interval carries many writes anyway.
 */
public final class AdmissionRate {

    private final AtomicLong second = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong current = new AtomicLong();
    private volatile long previous;

    /** Counts one record processed at {@code nowMs}. */
    public void record(long nowMs) {
        roll(nowMs);
        current.incrementAndGet();
    }

    /** Records per second as of {@code nowMs}. */
    public long perSecond(long nowMs) {
        roll(nowMs);
        return Math.max(previous, current.get());
    }

    /**
     * Starts a new second when {@code nowMs} is in a later one. A record counted by another thread while the second
     * turns over may land in either second: the rate is a load signal, not an account.
     */
    private void roll(long nowMs) {
        long s = nowMs / 1_000;
        long seen = second.get();
        if (s > seen && second.compareAndSet(seen, s)) {
            long last = current.getAndSet(0);
            previous = s == seen + 1 ? last : 0;
        }
    }
}
