package io.statesync.cli.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Repeats a read-modify-write that lost a race, as Kubernetes clients do with {@code retry.RetryOnConflict}: while
 * the answer is a 409 whose reason is {@code Conflict} (a stale resourceVersion; not {@code AlreadyExists}) and steps
 * are left, it waits, with jitter, and sends again. The first answer that is not such a conflict is returned as it
 * is, and so is the conflict of the last step; an {@link IOException} ends it at once. The call must read the object
 * afresh each time. {@link ApiClient#update} is the read-modify-write built on it.
 */
public final class ConflictRetry {

    /**
     * At most {@code steps} sends; the first wait is {@code duration}, each later one {@code factor} times the one
     * before (0 or 1 keeps it), and each is lengthened by a random fraction of itself below {@code jitter}.
     */
    public record Backoff(int steps, Duration duration, double factor, double jitter) {

        /** Several clients changing one object: five sends, 10 ms apart, with 10% jitter. */
        public static final Backoff DEFAULT_RETRY = new Backoff(5, Duration.ofMillis(10), 1.0, 0.1);
        /** A change to an object controllers also write: four sends, after 10, 50 and 250 ms, with 10% jitter. */
        public static final Backoff DEFAULT_BACKOFF = new Backoff(4, Duration.ofMillis(10), 5.0, 0.1);

        public Backoff {
            boolean valid = steps >= 1 && duration != null && !duration.isNegative() && factor >= 0 && jitter >= 0
                && Double.isFinite(factor) && Double.isFinite(jitter);
            if (!valid) {
                throw new IllegalArgumentException("a backoff needs steps >= 1 and a duration, factor and jitter that are "
                    + "finite and not negative");
            }
        }
    }

    /** One send of the read-modify-write. */
    @FunctionalInterface
    public interface Call {
        ApiClient.Response send() throws IOException;
    }

    /** How a wait is spent; tests record instead of sleeping. */
    @FunctionalInterface
    interface Pause {
        void pause(Duration d) throws IOException;
    }

    private final Pause pause;
    private final DoubleSupplier random;

    ConflictRetry(Pause pause, DoubleSupplier random) {
        this.pause = pause;
        this.random = random;
    }

    /** Sends {@code call} until its answer is not a conflict, or {@code backoff}'s steps are spent. */
    public static ApiClient.Response retryOnConflict(Backoff backoff, Call call) throws IOException {
        return new ConflictRetry(ConflictRetry::sleep, () -> ThreadLocalRandom.current().nextDouble()).run(backoff, call);
    }

    /** A 409 of a stale resourceVersion: reading again and repeating the change can succeed. */
    public static boolean isConflict(ApiClient.Response r) {
        return r.status() == 409 && r.json() != null && "Conflict".equals(r.json().path("reason").asText());
    }

    ApiClient.Response run(Backoff backoff, Call call) throws IOException {
        double wait = backoff.duration().toNanos();
        ApiClient.Response answer = call.send();
        for (int sent = 1; sent < backoff.steps() && isConflict(answer); sent++) {
            pause.pause(Duration.ofNanos((long) (wait * (1 + backoff.jitter() * random.getAsDouble()))));
            wait = backoff.factor() == 0 ? wait : wait * backoff.factor();
            answer = call.send();
        }
        return answer;
    }

    private static void sleep(Duration d) throws IOException {
        try {
            Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting to retry a conflict");
        }
    }
}
