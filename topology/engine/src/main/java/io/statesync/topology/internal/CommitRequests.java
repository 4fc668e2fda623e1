package io.statesync.topology.internal;

/**
 * When one task's admission asks Kafka Streams to commit for writes that REST callers await, since read_committed
 * readers see an answer only once its transaction commits. The first awaited write after a quiet spell asks at once,
 * so the transaction ends after the current poll loop; within the gap of that request, the gap's punctuation asks
 * instead. Every commit blocks the stream thread and halves its next batch, so a commit asked for per record would
 * cut the throughput of many concurrent writes. Nothing is asked for while the instance's admission is busy (above
 * the maximum rate): commit.interval.ms then carries many writes per transaction, and a commit every gap would
 * multiply the transactions per write.
 */
final class CommitRequests {

    private final long gapMs;
    private final long maxRate;
    private final AdmissionRate rate;
    private long lastRequestMs = Long.MIN_VALUE / 2;
    private boolean awaitedSinceRequest;

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

    long gapMs() {
        return gapMs;
    }

    /** An awaited write was admitted at {@code nowMs}: whether to ask for a commit now. */
    boolean awaited(long nowMs) {
        if (!enabled()) {
            return false;
        }
        if (nowMs - lastRequestMs >= gapMs && !busy(nowMs)) {
            return requested(nowMs);
        }
        awaitedSinceRequest = true;
        return false;
    }

    /** The gap's punctuation at {@code nowMs}: whether to ask for a commit for the writes awaited since the last one. */
    boolean punctuated(long nowMs) {
        return awaitedSinceRequest && !busy(nowMs) && requested(nowMs);
    }

    private boolean busy(long nowMs) {
        return maxRate > 0 && rate.perSecond(nowMs) > maxRate;
    }

    private boolean requested(long nowMs) {
        lastRequestMs = nowMs;
        awaitedSinceRequest = false;
        return true;
    }
}
