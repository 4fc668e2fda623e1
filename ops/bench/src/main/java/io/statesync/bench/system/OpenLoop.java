package io.statesync.bench.system;

import java.util.concurrent.locks.LockSupport;

/**
 * An open-loop schedule: operation {@code i} is due at {@code start + i / rate}, whatever happened to the ones before.
 * Callers measure from the intended time, not from the actual send, so a stall that delays later operations is
 * charged to them too (no coordinated omission): a closed loop would simply have sent fewer.
 */
final class OpenLoop {

    /** One operation, told its index and the nanoTime at which it was due. */
    @FunctionalInterface
    interface Operation {
        void run(long index, long intendedNanos) throws Exception;
    }

    /** What was actually done: {@code count} operations between {@code startNanos} and {@code endNanos}. */
    record Done(long startNanos, long endNanos, long count) {
        double rate() {
            return count / ((endNanos - startNanos) / 1e9);
        }
    }

    private final double rate;
    private volatile long startNanos;
    private volatile long startMillis;

    OpenLoop(double rate) {
        this.rate = rate;
    }

    long intended(long index) {
        return startNanos + (long) (index * 1e9 / rate);
    }

    /** The intended send time of operation {@code index} on the wall clock, to compare with timestamps in records. */
    long intendedMillis(long index) {
        return startMillis + (intended(index) - startNanos) / 1_000_000;
    }

    /** Runs {@code rate * seconds} operations on the calling thread; an operation that is late runs at once. */
    Done run(double seconds, Operation op) throws Exception {
        long n = (long) (rate * seconds);
        startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
        for (long i = 0; i < n; i++) {
            long due = intended(i);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            op.run(i, due);
        }
        return new Done(startNanos, System.nanoTime(), n);
    }
}
