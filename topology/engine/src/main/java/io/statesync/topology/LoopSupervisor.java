package io.statesync.topology;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.statesync.config.AppConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one background loop (a consumer's poll loop) on its own daemon thread and starts it again when it throws a
 * RuntimeException, after a backoff that doubles with each failure in a row up to a cap. A loop that returns, or that
 * throws an {@link Error}, is stopped; so is one whose owner called {@link #stop}.
 *
 * <p>The loop's body must be restartable: it is called again on the same thread, with the state it left behind (a
 * consumer keeps its assignment and positions), and should resume rather than start over. Its state, readable from
 * any thread, feeds readiness (anything but running) and liveness (stopped for good, or failing for longer than
 * {@code loop.liveness.ms}): a restart of the instance helps then, and only then.
 */
public final class LoopSupervisor {

    /** What a loop is doing. */
    public enum Phase { RUNNING, RESTARTING, STOPPED }

    /**
     * A loop's state: {@code reason} is the last failure (null while running without one), {@code since} when the
     * current phase began, or for RESTARTING when the failures in a row began.
     */
    public record State(String loop, Phase phase, String reason, Instant since) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(LoopSupervisor.class);

    private final String name;
    private final Runnable body;
    private final long initialBackoffNanos;
    private final long maxBackoffNanos;
    private final long livenessNanos;
    private final LongSupplier nanoTime;
    private final AtomicLong restarts = new AtomicLong();
    private final Object wakeUp = new Object();
    private volatile Thread thread;
    private volatile boolean stopping;
    private volatile Phase phase = Phase.RUNNING;
    private volatile String reason;
    /** When the failures in a row began (nanoTime), or 0 when the loop last ran long enough to count as recovered. */
    private volatile long failingSinceNanos;
    private volatile long phaseSinceNanos;
    /** Whether the loop stopped in a way its owner did not ask for. */
    private volatile boolean stoppedForGood;

    public LoopSupervisor(String name, Runnable body, Duration initialBackoff, Duration maxBackoff, Duration liveness,
                          LongSupplier nanoTime) {
        this.name = name;
        this.body = body;
        this.initialBackoffNanos = initialBackoff.toNanos();
        this.maxBackoffNanos = Math.max(initialBackoff.toNanos(), maxBackoff.toNanos());
        this.livenessNanos = liveness.toNanos();
        this.nanoTime = nanoTime;
    }

    /** A supervisor with the backoff and liveness bounds of {@code config}. */
    public static LoopSupervisor of(String name, Runnable body, AppConfig config) {
        return new LoopSupervisor(name, body, Duration.ofMillis(config.getLong(AppConfig.LOOP_RESTART_BACKOFF_MS)),
            Duration.ofMillis(config.getLong(AppConfig.LOOP_RESTART_BACKOFF_MAX_MS)),
            Duration.ofMillis(config.getLong(AppConfig.LOOP_LIVENESS_MS)), System::nanoTime);
    }

    /** Starts the loop on a daemon thread named after it. */
    public LoopSupervisor start() {
        phaseSinceNanos = nanoTime.getAsLong();
        Thread t = new Thread(this::supervise, name);
        t.setDaemon(true);
        thread = t;
        t.start();
        return this;
    }

    /** The loop's name, as in its thread and its meters' {@code loop} tag. */
    public String name() {
        return name;
    }

    /** The thread the loop runs on, null before {@link #start}. */
    public Thread thread() {
        return thread;
    }

    /** Asks the loop not to be started again and cuts a backoff short; the owner wakes the body itself. */
    public void stop() {
        stopping = true;
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
    }

    /** Whether the owner asked this loop to stop. */
    public boolean stopping() {
        return stopping;
    }

    /** How many times the loop was started again after a failure. */
    public long restarts() {
        return restarts.get();
    }

    public State state() {
        Phase p = phase;
        String why = p == Phase.RUNNING && recovered() ? null : reason;
        long since = p == Phase.RESTARTING && failingSinceNanos != 0 ? failingSinceNanos : phaseSinceNanos;
        return new State(name, p, why, Instant.now().minusNanos(Math.max(0, nanoTime.getAsLong() - since)));
    }

    /** Why the instance should not count as ready because of this loop, or null. */
    public String readinessProblem() {
        Phase p = phase;
        if (p == Phase.RUNNING || stopping) {
            return null;
        }
        return "loop " + name + " is " + p.name().toLowerCase(java.util.Locale.ROOT) + (reason == null ? "" : ": " + reason);
    }

    /** Why a restart of the instance would help because of this loop (stopped for good, or failing too long), or null. */
    public String livenessProblem() {
        if (stopping) {
            return null;
        }
        if (phase == Phase.STOPPED && stoppedForGood) {
            return "loop " + name + " stopped: " + reason;
        }
        long since = failingSinceNanos;
        if (since != 0 && !recovered() && nanoTime.getAsLong() - since > livenessNanos) {
            return "loop " + name + " has kept failing for " + Duration.ofNanos(nanoTime.getAsLong() - since).toSeconds()
                + " s: " + reason;
        }
        return null;
    }

    /** Counts restarts in {@code statesync_loop_restarts_total} and shows the phase in {@code statesync_loop_state}. */
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("statesync.loop.restarts", restarts, AtomicLong::get).tag("loop", name)
            .description("Times a background loop was started again after it failed").register(registry);
        Gauge.builder("statesync.loop.state", this, s -> s.phase.ordinal()).tag("loop", name)
            .description("A background loop's phase: 0 running, 1 restarting after a failure, 2 stopped").register(registry);
    }

    /** Running without a failure for as long as the longest backoff counts as recovered; the next failure starts over. */
    private boolean recovered() {
        return phase == Phase.RUNNING && nanoTime.getAsLong() - phaseSinceNanos >= maxBackoffNanos;
    }

    private void supervise() {
        long backoff = initialBackoffNanos;
        while (!stopping) {
            enter(Phase.RUNNING);
            try {
                body.run();
                if (!stopping) {
                    stoppedForGood = true;
                    reason = "ended without being stopped";
                    LOG.error("Background loop {} ended without being stopped", name);
                }
                break;
            } catch (RuntimeException e) {
                if (stopping) {
                    break;
                }
                if (recovered() || failingSinceNanos == 0) {
                    backoff = initialBackoffNanos;
                    failingSinceNanos = nanoTime.getAsLong();
                }
                reason = e.toString();
                enter(Phase.RESTARTING);
                LOG.error("Background loop {} failed; starting it again in {} ms", name, backoff / 1_000_000, e);
                sleep(backoff);
                backoff = Math.min(maxBackoffNanos, backoff * 2);
                restarts.incrementAndGet();
            } catch (Error e) {
                stoppedForGood = true;
                reason = e.toString();
                // Not thrown on: the thread ends here either way, and the state says why for the probes.
                LOG.error("Background loop {} stopped for good", name, e);
                break;
            }
        }
        enter(Phase.STOPPED);
    }

    private void enter(Phase next) {
        phase = next;
        phaseSinceNanos = nanoTime.getAsLong();
    }

    private void sleep(long nanos) {
        long deadline = nanoTime.getAsLong() + nanos;
        synchronized (wakeUp) {
            long left;
            while (!stopping && (left = deadline - nanoTime.getAsLong()) > 0) {
                try {
                    wakeUp.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopping = true;
                }
            }
        }
    }
}
