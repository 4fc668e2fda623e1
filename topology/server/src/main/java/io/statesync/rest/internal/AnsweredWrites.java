package io.statesync.rest.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The versions this instance answered writes with, per key, until the resource view shows them. A point read on
 * this instance needs at least that version, so a client that writes and then reads through the same instance reads
 * its write without sending any version. Entries leave when a read sees the view caught up, or after
 * {@link #FORGET_AFTER_NANOS}, by which time the view has published the write or the owner is failing anyway.
 */
public final class AnsweredWrites {

    /** Stands for "the key was deleted": any version still in the view is older. */
    public static final long DELETED = Long.MAX_VALUE;
    static final long FORGET_AFTER_NANOS = 60_000_000_000L;
    /**
     * Above this many entries, a write first drops the expired ones, so the map stays bounded by the write rate. A
     * sweep that leaves many recent entries raises the mark to twice what is left, so that a sweep over the whole map
     * stays rare instead of running on every write while more than this many writes are recent.
     */
    static final int SWEEP_ABOVE = 10_000;

    private record Answered(long version, long atNanos) {
    }

    private final Map<String, Answered> byKey = new ConcurrentHashMap<>();
    private final AtomicInteger sweepAbove = new AtomicInteger(SWEEP_ABOVE);

    /** A write of {@code key} was answered with {@code version}; empty or null means it was deleted outright. */
    public void answered(String key, String version) {
        long v = version == null || version.isEmpty() ? DELETED : ResourceVersions.parse(version);
        if (v < 0) {
            return;
        }
        int mark = sweepAbove.get();
        // Whoever moves the mark sweeps; the others write on meanwhile.
        if (byKey.size() > mark && sweepAbove.compareAndSet(mark, Integer.MAX_VALUE)) {
            long now = System.nanoTime();
            byKey.values().removeIf(a -> now - a.atNanos() > FORGET_AFTER_NANOS);
            sweepAbove.set(Math.max(SWEEP_ABOVE, 2 * byKey.size()));
        }
        byKey.merge(key, new Answered(v, System.nanoTime()), (old, now) -> old.version() > now.version() ? old : now);
    }

    /** The version a read of {@code key} on this instance needs at least; 0 when none. */
    public long needed(String key) {
        if (byKey.isEmpty()) {
            return 0;
        }
        Answered a = byKey.get(key);
        if (a == null) {
            return 0;
        }
        if (System.nanoTime() - a.atNanos() > FORGET_AFTER_NANOS) {
            byKey.remove(key, a);
            return 0;
        }
        return a.version();
    }

    /** The view showed {@code key} at {@code version} (or absent, as {@link #DELETED}): older answers are settled. */
    public void seen(String key, long version) {
        Answered a = byKey.get(key);
        if (a != null && a.version() <= version) {
            byKey.remove(key, a);
        }
    }

    int size() {
        return byKey.size();
    }

    int sweepAbove() {
        return sweepAbove.get();
    }
}
