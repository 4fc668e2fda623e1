package io.statesync.topology;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.apache.kafka.streams.errors.StreamsException;

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

    /** One failure; {@code task} and {@code cause} are kept for a handler's record until its thread's death is matched. */
    private static final class Failure {
        final long at;
        final String where;
        final String error;
        String task;
        Throwable cause;

        Failure(long at, String where, Throwable error, String task) {
            this.at = at;
            this.where = where;
            this.error = error.getClass().getName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
            this.task = task;
            this.cause = task == null ? null : error;
        }
    }

    private final Clock clock;
    private final Deque<Failure> recent = new ArrayDeque<>();
    /** When the current run of failures began: each failed within {@link #WINDOW} of the one before; -1 with none. */
    private long streakStart = -1;
    private long lastAt = -1;

    public TaskFailures(Clock clock) {
        this.clock = clock;
    }

    /**
     * An exception handler failed task {@code taskId} ({@code where} names it with its input and offset). Kafka Streams
     * then ends the task's stream thread with the same failure, which {@link #threadDied} matches to this record.
     */
    public synchronized void taskFailed(String taskId, String where, Throwable error) {
        add(new Failure(clock.millis(), where, error, taskId));
    }

    /**
     * A stream thread died of {@code error}. One failure is counted once: a death that ends a failure an exception
     * handler recorded (its exception is in the chain, or the death names the same task) is that failure, already
     * counted, and each handler's record stands for one death at most. Any other death counts.
     */
    public synchronized void threadDied(String thread, Throwable error) {
        String task = failedTask(error);
        Failure handled = unmatchedHandlerFailure(task, error);
        if (handled != null) {
            handled.task = null;
            handled.cause = null;
            return;
        }
        add(new Failure(clock.millis(), "stream thread " + thread + (task == null ? "" : ", task " + task), error, null));
    }

    private void add(Failure failure) {
        if (lastAt < 0 || failure.at - lastAt > WINDOW.toMillis()) {
            streakStart = failure.at;
        }
        lastAt = failure.at;
        recent.addLast(failure);
        while (recent.size() > KEPT) {
            recent.removeFirst();
        }
    }

    /** The newest handler's record, within the window, that this death ends: its exception first, else its task. */
    private Failure unmatchedHandlerFailure(String task, Throwable error) {
        long since = clock.millis() - WINDOW.toMillis();
        Failure sameTask = null;
        for (var it = recent.descendingIterator(); it.hasNext(); ) {
            Failure f = it.next();
            if (f.at < since) {
                break;
            }
            if (f.cause != null && inChain(error, f.cause)) {
                return f;
            }
            if (sameTask == null && f.task != null && f.task.equals(task)) {
                sameTask = f;
            }
        }
        return sameTask;
    }

    private static boolean inChain(Throwable error, Throwable wanted) {
        return chain(error).stream().anyMatch(t -> t == wanted);
    }

    /** The task Kafka Streams charged a thread's death to, or null. */
    private static String failedTask(Throwable error) {
        return chain(error).stream().filter(t -> t instanceof StreamsException se && se.taskId().isPresent())
            .map(t -> ((StreamsException) t).taskId().get().toString()).findFirst().orElse(null);
    }

    private static List<Throwable> chain(Throwable error) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = error; t != null && chain.size() < 32 && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** Why the instance is not ready (failures repeated within the window, the newest named), or null. */
    public synchronized String problem() {
        long since = clock.millis() - WINDOW.toMillis();
        while (!recent.isEmpty() && recent.peekFirst().at < since) {
            recent.removeFirst();
        }
        if (recent.size() < REPEATS) {
            return null;
        }
        Failure last = recent.peekLast();
        String error = last.error.length() > 300 ? last.error.substring(0, 300) + "..." : last.error;
        return "stream tasks failed " + recent.size() + " times in the last " + WINDOW.toMinutes() + " minutes; the newest, "
            + last.where + ": " + error;
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
