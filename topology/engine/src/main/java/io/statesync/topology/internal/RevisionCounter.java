package io.statesync.topology.internal;

import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's resourceVersion counter, held in memory and persisted in blocks: the revisions store keeps the highest
 * number reserved, not the last one issued, and is written once per {@link #BLOCK} versions.
 *
 * <p>Why: one store write per issued version would make the revisions changelog nearly as long as the resources topic,
 * all of it replayed on a restore. The Streams cache does not coalesce those writes to one record per commit: the
 * thread's cache is shared with the timer index, and once that fills it a put into the revisions cache evicts (and
 * sends) its only entry. Versions stay monotonic per key across restarts, failovers and
 * aborted transactions: a restarted or re-initialised task starts after the reserved mark, which was committed with (or
 * before) every version it covers; at most a block of numbers is skipped each time, and versions are only ordered,
 * never dense.
 */
final class RevisionCounter {

    static final String KEY = "revision";
    static final long BLOCK = 1_000;

    /** The last version issued; -1 until read from the store after the task's (re)initialisation. */
    private long last = -1;
    private long reserved;

    long next(KeyValueStore<String, Long> revisions) {
        if (last < 0) {
            Long stored = revisions.get(KEY);
            last = stored == null ? 0 : stored;
            reserved = last;
        }
        long next = ++last;
        if (next > reserved) {
            reserved = next + BLOCK - 1;
            revisions.put(KEY, reserved);
        }
        return next;
    }

    /** The task's stores were (re)initialised or rolled back: read the reserved mark again before the next version. */
    void forget() {
        last = -1;
    }
}
