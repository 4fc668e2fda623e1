package io.statesync.agent;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;

/**
 * Retries a read-modify-write that lost a race, as Kubernetes clients do with {@code retry.RetryOnConflict}: the
 * attempt runs again, after a jittered wait, while it fails with a stale-resourceVersion conflict (409 with the reason
 * {@code Conflict}) and steps are left. Any other failure, and the conflict of the last step, reach the caller
 * unchanged. The attempt must read the object afresh each time: retrying a write built on the old read only
 * conflicts again.
 *
 * <pre>{@code
 * ConflictRetry.retryOnConflict(ConflictRetry.Backoff.DEFAULT_RETRY, () -> {
 *     ObjectNode o = client.get(ref);
 *     ((ObjectNode) o.with("spec")).put("replicas", 3);
 *     return client.put(ref, o);       // conditional: o carries the resourceVersion it was read at
 * });
 * }</pre>
 * {@link StatesyncResourceClient#update} does exactly this.
 */
public final class ConflictRetry {

    /**
     * How often and how long to wait: at most {@code steps} attempts; the wait before the second is
     * {@code duration}, each later one {@code factor} times the one before (a factor of 0 or 1 keeps it), never above
     * {@code cap} unless {@code cap} is zero; each wait is lengthened by a random fraction up to {@code jitter}, so
     * that writers that conflicted together do not retry together.
     */
    public record Backoff(int steps, Duration duration, double factor, double jitter, Duration cap) {

        /** For several clients changing the same object: five attempts 10 ms apart, with 10% jitter. */
        public static final Backoff DEFAULT_RETRY = new Backoff(5, Duration.ofMillis(10), 1.0, 0.1, Duration.ZERO);

        /**
         * For a change to an object that controllers are also writing: four attempts, waits of 10, 50 and 250 ms,
         * with 10% jitter.
         */
        public static final Backoff DEFAULT_BACKOFF = new Backoff(4, Duration.ofMillis(10), 5.0, 0.1, Duration.ZERO);

        public Backoff {
            Objects.requireNonNull(duration, "duration");
            Objects.requireNonNull(cap, "cap");
            if (steps < 1 || duration.isNegative() || cap.isNegative() || !(factor >= 0) || !(jitter >= 0)
                || Double.isInfinite(factor) || Double.isInfinite(jitter)) {
                throw new IllegalArgumentException("a backoff needs steps >= 1 and non-negative, finite duration, "
                    + "factor, jitter and cap: " + steps + ", " + duration + ", " + factor + ", " + jitter + ", " + cap);
            }
        }

        /** The wait before attempt {@code retry + 1} ({@code retry} from 1), before jitter. */
        Duration baseWait(int retry) {
            double nanos = duration.toNanos() * (factor == 0 ? 1 : Math.pow(factor, retry - 1));
            if (!cap.isZero()) {
                nanos = Math.min(nanos, cap.toNanos());
            }
            return Duration.ofNanos((long) Math.min(nanos, Long.MAX_VALUE / 4.0));
        }
    }

    /** One attempt, which may fail with its own checked exception. */
    @FunctionalInterface
    public interface Attempt<T, E extends Exception> {
        T run() throws E;
    }

    /** How the waits are spent; tests record instead of sleeping. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private static final ConflictRetry SYSTEM = new ConflictRetry(
        d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000), () -> ThreadLocalRandom.current().nextDouble());

    private final Sleeper sleeper;
    private final DoubleSupplier random;

    ConflictRetry(Sleeper sleeper, DoubleSupplier random) {
        this.sleeper = sleeper;
        this.random = random;
    }

    /**
     * Runs {@code attempt} until it returns, retrying with {@code backoff} while it fails with a conflict
     * ({@link #isConflict}); returns what the successful attempt returned.
     */
    public static <T, E extends Exception> T retryOnConflict(Backoff backoff, Attempt<T, E> attempt)
            throws E, InterruptedException {
        return onError(backoff, ConflictRetry::isConflict, attempt);
    }

    /** As {@link #retryOnConflict}, retrying the failures {@code retriable} accepts. */
    public static <T, E extends Exception> T onError(Backoff backoff, Predicate<? super Exception> retriable,
            Attempt<T, E> attempt) throws E, InterruptedException {
        return SYSTEM.run(backoff, retriable, attempt);
    }

    /** A 409 of a stale resourceVersion; not AlreadyExists, which no retry of the same create can get past. */
    public static boolean isConflict(Throwable e) {
        return e instanceof StatesyncApiException api && api.isConflict();
    }

    <T, E extends Exception> T run(Backoff backoff, Predicate<? super Exception> retriable, Attempt<T, E> attempt)
            throws E, InterruptedException {
        for (int n = 1; ; n++) {
            try {
                return attempt.run();
            } catch (Exception e) {
                if (n >= backoff.steps() || !retriable.test(e)) {
                    throw e;
                }
            }
            sleeper.sleep(jittered(backoff, n));
        }
    }

    /** The wait after attempt {@code n}: its base, lengthened by up to {@code jitter} of itself. */
    Duration jittered(Backoff backoff, int n) {
        Duration base = backoff.baseWait(n);
        return base.plusNanos((long) (base.toNanos() * backoff.jitter() * random.getAsDouble()));
    }
}
