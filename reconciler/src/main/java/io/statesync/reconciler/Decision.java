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
        /**
         * The {@code why} of a correction the planner emitted but the caller held back because the kind's correction
         * rate was used up; {@code until} is when its next token is due.
         */
        public static final String RATE_LIMITED = "RateLimited";

        public Wait {
            Objects.requireNonNull(until, "until");
        }

        public boolean rateLimited() {
            return RATE_LIMITED.equals(why);
        }
    }

    /**
     * Nothing more is emitted until the generation changes: the same correction failed {@code maxAttempts} times
     * (reason {@link #MAX_ATTEMPTS}), or the agent reported a terminal failure of this generation
     * ({@link #TERMINAL_ERROR}, with the agent's message).
     */
    record Stalled(String reason, String message) implements Decision {
        public static final String MAX_ATTEMPTS = "MaxAttemptsExceeded";
        public static final String TERMINAL_ERROR = "TerminalError";

        public Stalled {
            Objects.requireNonNull(reason, "reason");
        }

        /** Gave up after {@code maxAttempts}. */
        public Stalled(String message) {
            this(MAX_ATTEMPTS, message);
        }

        public boolean terminal() {
            return TERMINAL_ERROR.equals(reason);
        }
    }

    /**
     * Observed without a desired counterpart, under orphan policy REPORT or IGNORE: no correction. With REPORT the
     * status is Orphaned; with IGNORE the caller need not publish anything. (PRUNE plans an {@link Emit} DELETE.)
     */
    record Orphan(OrphanPolicy policy) implements Decision {
    }
}
