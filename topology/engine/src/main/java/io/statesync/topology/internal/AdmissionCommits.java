package io.statesync.topology.internal;

/**
 * The commit requests of one instance's admission: the admitted-record rate of the whole instance, and one
 * {@link CommitRequests} per stream thread, shared by the tasks the thread runs. Under exactly-once each stream thread
 * has one transaction for all its tasks, so requests counted per task would commit a thread once per task and gap.
 * Processors look their thread's instance up on every call rather than keeping it: it is the thread that runs a
 * processor, not the task, that owns the transaction.
 */
public final class AdmissionCommits {

    private final long gapMs;
    private final AdmissionRate rate = new AdmissionRate();
    private final ThreadLocal<CommitRequests> perThread;

    /** {@code gapMs} 0 turns requests off; {@code maxRate} 0 means no rate is too busy. */
    public AdmissionCommits(long gapMs, long maxRate) {
        this.gapMs = gapMs;
        this.perThread = ThreadLocal.withInitial(() -> new CommitRequests(gapMs, maxRate, rate));
    }

    boolean enabled() {
        return gapMs > 0;
    }

    /** How often each task's punctuation looks for held-back requests: half the gap, so none waits much past it. */
    long punctuationMs() {
        return Math.max(1, gapMs / 2);
    }

    /** The calling stream thread's requests. */
    CommitRequests ofThisThread() {
        return perThread.get();
    }

    AdmissionRate rate() {
        return rate;
    }
}
