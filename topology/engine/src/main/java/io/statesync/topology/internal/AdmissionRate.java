package io.statesync.topology.internal;

import java.util.Arrays;

/**
 * How many records this instance's admission processes per second, across its tasks and stream threads, over a
 * window that slides in steps of {@value #STEP_MS} ms. Commits on request stop above {@code admission.commit.max.rate},
 * where each commit interval carries many writes anyway. The window slides, so that a burst counts from its start
 * and no second begins again at zero: each commit asked for in a burst costs the transaction it ends.
 */
public final class AdmissionRate {

    static final long WINDOW_MS = 1_000;
    static final long STEP_MS = 100;
    private static final int STEPS = (int) (WINDOW_MS / STEP_MS);

    /** The step each slot counts, as {@code nowMs / STEP_MS}; a slot whose step left the window counts nothing. */
    private final long[] steps = new long[STEPS];
    private final long[] counts = new long[STEPS];

    public AdmissionRate() {
        Arrays.fill(steps, Long.MIN_VALUE);
    }

    /** Counts one record processed at {@code nowMs}. */
    public synchronized void record(long nowMs) {
        long step = nowMs / STEP_MS;
        int slot = (int) Math.floorMod(step, (long) STEPS);
        if (steps[slot] != step) {
            steps[slot] = step;
            counts[slot] = 0;
        }
        counts[slot]++;
    }

    /** Records per second over the window that ends at {@code nowMs}. */
    public synchronized long perSecond(long nowMs) {
        long step = nowMs / STEP_MS;
        long total = 0;
        for (int i = 0; i < STEPS; i++) {
            if (steps[i] > step - STEPS && steps[i] <= step) {
                total += counts[i];
            }
        }
        return total * 1_000 / WINDOW_MS;
    }
}
