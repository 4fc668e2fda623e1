package io.statesync.bench.system;

import org.HdrHistogram.Histogram;

/**
 * The open-loop writes of one run, spread round-robin over {@code keys} keys (write {@code i} goes to key
 * {@code i % keys}), and the latency of each from its intended send time to the correction that answered it.
 * A correction for a key answers every earlier write of that key too: when the topology coalesces several writes
 * of a key, only the last one gets a correction, and the earlier ones are done at the same moment.
 */
final class PendingWrites {

    private final int keys;
    private final OpenLoop schedule;
    private final long[] next;
    private final Histogram histogram = Latencies.histogram();
    private final Histogram issued = Latencies.histogram();
    private volatile long sent;
    private long answered;

    PendingWrites(int keys, OpenLoop schedule) {
        this.keys = keys;
        this.schedule = schedule;
        this.next = new long[keys];
        for (int k = 0; k < keys; k++) {
            next[k] = k;
        }
    }

    void sent(long count) {
        sent = count;
    }

    long sent() {
        return sent;
    }

    /** Completes every write of key {@code k} up to index {@code upTo}, as of {@code arrivedNanos}. */
    synchronized void complete(int k, long upTo, long arrivedNanos) {
        while (next[k] <= upTo && next[k] < sent) {
            histogram.recordValue(Math.max(0, arrivedNanos - schedule.intended(next[k])));
            answered++;
            next[k] += keys;
        }
    }

    /**
     * For answers that do not say which write they answer (a drift correction carries the desired spec, not the
     * observation): completes the writes of key {@code k} that were due before the correction was issued, since a
     * correction cannot answer a later one.
     */
    synchronized void completeIssuedBefore(int k, long issuedAtMillis, long arrivedNanos) {
        while (next[k] < sent && schedule.intendedMillis(next[k]) <= issuedAtMillis) {
            histogram.recordValue(Math.max(0, arrivedNanos - schedule.intended(next[k])));
            answered++;
            next[k] += keys;
        }
    }

    /**
     * Records how long write {@code index} took until statesync issued its correction ({@code issuedAt}, wall clock
     * in ms), which splits its latency into processing and what follows (the EOS commit, the consumer's fetch).
     */
    synchronized void issued(long index, long issuedAtMillis) {
        issued.recordValue(Math.max(0, issuedAtMillis - schedule.intendedMillis(index)) * 1_000_000);
    }

    synchronized Histogram issued() {
        return issued.copy();
    }

    synchronized long answered() {
        return answered;
    }

    /**
     * Records the writes still unanswered with their age at {@code nowNanos}, a lower bound of their latency, so
     * that an overloaded run reports how late it was rather than only the writes it managed to answer.
     */
    synchronized Histogram close(long nowNanos) {
        Histogram all = histogram.copy();
        for (int k = 0; k < keys; k++) {
            for (long i = next[k]; i < sent; i += keys) {
                all.recordValue(Math.max(0, nowNanos - schedule.intended(i)));
            }
        }
        return all;
    }
}
