package io.statesync.topology.internal;

/**
 * When the admission of one stream thread's tasks asks Kafka Streams to commit for writes that REST callers await,
 * since read_committed readers see an answer only once its transaction commits. One instance serves every task of a
 * stream thread ({@link AdmissionCommits}): a commit there ends the thread's one transaction, which covers all its
 * tasks, so the gap between requests is the thread's, not each task's. The first awaited write after a quiet gap
 * asks at once, so the transaction ends after the current poll loop; a write within the gap is asked for by a
 * punctuation once the gap has passed. Every commit blocks the stream thread and halves its next batch, so a commit
 * asked for per record would cut the throughput of many concurrent writes. Nothing is asked for while the
 * instance's admission is busy (above the maximum rate): commit.interval.ms then carries many writes per
 * transaction, and a commit every gap would multiply the transactions per write.
 */
final class CommitRequests {

    private final long gapMs;
    private final long maxRate;
    private final AdmissionRate rate;
    private long lastRequestMs = Long.MIN_VALUE / 2;
    /** Awaited writes admitted since the last request, which it did not cover. */
    private int heldBack;
    /** The awaited writes the last request covered. */
    private int lastBatch;

    /** {@code gapMs} 0 turns requests off; {@code maxRate} 0 means no rate is too busy. */
    CommitRequests(long gapMs, long maxRate, AdmissionRate rate) {
        this.gapMs = gapMs;
        this.maxRate = maxRate;
        this.rate = rate;
    }

    /** Any record reached admission at {@code nowMs}. */
    void admitted(long nowMs) {
        rate.record(nowMs);
    }

    boolean enabled() {
        return gapMs > 0;
    }

    /**
     * An awaited write was admitted at {@code nowMs}: whether to ask for a commit now. Within the gap it asks only for
     * a lone writer's write: the last request covered one write and none has waited since, as when one client writes
     * in sequence, each write after the answer to the one before. A quarter of the gap still has to pass, so that
     * concurrent writers, whose first request after a quiet spell covers one write too, do not ask once per write.
     */
    boolean awaited(long nowMs) {
        if (!enabled()) {
            return false;
        }
        long since = nowMs - lastRequestMs;
        boolean lone = lastBatch <= 1 && heldBack == 0 && since >= gapMs / 4;
        if ((since >= gapMs || lone) && !busy(nowMs)) {
            return requested(nowMs, heldBack + 1);
        }
        heldBack++;
        return false;
    }

    /**
     * A punctuation at {@code nowMs} (every half gap, in each task): whether to ask for a commit for the writes awaited
     * since the last request, once a whole gap has passed since it.
     */
    boolean punctuated(long nowMs) {
        return heldBack > 0 && nowMs - lastRequestMs >= gapMs && !busy(nowMs) && requested(nowMs, heldBack);
    }

    private boolean busy(long nowMs) {
        return maxRate > 0 && rate.perSecond(nowMs) > maxRate;
    }

    private boolean requested(long nowMs, int covered) {
        lastRequestMs = nowMs;
        lastBatch = covered;
        heldBack = 0;
        return true;
    }
}
