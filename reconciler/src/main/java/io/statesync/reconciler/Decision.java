package io.statesync.reconciler;

import java.time.Instant;
import java.util.Objects;

/** What the planner decided for one key at one instant. */
public sealed interface Decision {

    /** Nothing to do: observed matches the merge target (or there is nothing on either side, or deletion is done). */
    record InSync() implements Decision {
    }

    /** Emit this correction now. */
    record Emit(PlannedCorrection correction) implements Decision {
        public Emit {
            Objects.requireNonNull(correction, "correction");
        }
    }

    /** Not now: look again at {@code until} (an outstanding correction's deadline, or the end of a backoff). */
    record Wait(Instant until, String why) implements Decision {
        public Wait {
            Objects.requireNonNull(until, "until");
        }
    }

    /** The same correction failed {@code maxAttempts} times; nothing more is emitted until the generation changes. */
    record Stalled(String message) implements Decision {
    }

    /**
     * Observed without a desired counterpart, under orphan policy REPORT or IGNORE: no correction. With REPORT the
     * status is Orphaned; with IGNORE the caller need not publish anything. (PRUNE plans an {@link Emit} DELETE.)
     */
    record Orphan(OrphanPolicy policy) implements Decision {
    }
}
