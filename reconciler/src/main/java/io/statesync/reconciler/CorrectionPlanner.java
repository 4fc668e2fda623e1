package io.statesync.reconciler;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Decides, from the full stored state of one key, whether to emit a correction, wait, or give up. Pure apart from
 * the random salt drawn once at construction; the clock comes in with the input.
 */
public final class CorrectionPlanner {
    private final long salt;

    /** @param random the source of backoff jitter; a seeded one makes every decision reproducible */
    public CorrectionPlanner(RandomGenerator random) {
        this.salt = random.nextLong();
    }

    public Decision plan(PlanInput in) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The fingerprint of a correction: action, generation and patch; stable across JVMs. */
    public static String fingerprint(Action action, long generation, List<PatchOp> patch) {
        throw new UnsupportedOperationException("not yet");
    }
}
