package io.statesync.topology;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The failures of this instance's stream tasks in a recent window, for {@code /readyz}: a task that keeps failing
 * (its stream thread died and was replaced, or the processing handler failed it to retry a record) answers requests
 * for its partitions with timeouts while the Streams state still says RUNNING, so readiness has to say it. One
 * instance per application, shared with the Streams handlers through {@link #CONFIG_KEY}; bounded to the newest
 * {@link #KEPT} failures.
 */
public final class TaskFailures {

    /** Streams property under which the processing handler finds the instance's failures. */
    public static final String CONFIG_KEY = "statesync.task.failures";
    /** How many failures within {@link #WINDOW} make the instance not ready. */
    public static final int REPEATS = 3;
    public static final Duration WINDOW = Duration.ofMinutes(5);
    static final int KEPT = 64;

    private record Failure(long at, String where, String error) {
    }

    private final Clock clock;
    private final Deque<Failure> recent = new ArrayDeque<>();
    /** When the current run of failures began: each failed within {@link #WINDOW} of the one before; -1 with none. */
    private long streakStart = -1;
    private long lastAt = -1;

    public TaskFailures(Clock clock) {
        this.clock = clock;
    }

    /** A failure of a task or stream thread: {@code where} names it (a thread, a task and offset), {@code error} why. */
    public synchronized void failed(String where, Throwable error) {
        long at = clock.millis();
        if (lastAt < 0 || at - lastAt > WINDOW.toMillis()) {
            streakStart = at;
        }
        lastAt = at;
        recent.addLast(new Failure(at, where, error.getClass().getName()
            + (error.getMessage() == null ? "" : ": " + error.getMessage())));
        while (recent.size() > KEPT) {
            recent.removeFirst();
        }
    }

    /** Why the instance is not ready (failures repeated within the window, the newest named), or null. */
    public synchronized String problem() {
        long since = clock.millis() - WINDOW.toMillis();
        while (!recent.isEmpty() && recent.peekFirst().at() < since) {
            recent.removeFirst();
        }
        if (recent.size() < REPEATS) {
            return null;
        }
        Failure last = recent.peekLast();
        String error = last.error().length() > 300 ? last.error().substring(0, 300) + "..." : last.error();
        return "stream tasks failed " + recent.size() + " times in the last " + WINDOW.toMinutes() + " minutes; the newest, "
            + last.where() + ": " + error;
    }

    /**
     * Why the instance should be restarted, or null: its tasks are failing now (not ready, as {@link #problem()}
     * says) and have failed without a quiet {@link #WINDOW} for at least {@code afterMs}, so replacing threads has not
     * helped and a new process (fresh memory, connections and state directory locks) may. Zero turns it off.
     */
    public synchronized String livenessProblem(long afterMs) {
        String problem = problem();
        if (afterMs <= 0 || problem == null || clock.millis() - streakStart < afterMs) {
            return null;
        }
        return "stream tasks have kept failing for " + (clock.millis() - streakStart) / 1000 + " s; " + problem;
    }
}
