package io.statesync.simulator;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The run-time status the fleet simulator reports, as a Deployment's would look: {@code replicas} (from the state's
 * {@code replicas}, else 1), {@code readyReplicas} climbing one per ready step after each apply, and
 * {@code crashLooping} (0 or 1) while a resource picked now and then crash-loops, with one replica fewer ready.
 */
final class SimulatedStatus {

    private record Timing(long appliedAt, long degradedUntil) {
    }

    private final SimulatorSettings settings;
    private final LongSupplier clock;
    private final Map<String, Timing> timings = new ConcurrentHashMap<>();
    private final Map<String, Object> lastReported = new ConcurrentHashMap<>();
    private long nextDegradeAt;

    SimulatedStatus(SimulatorSettings settings, LongSupplier clock) {
        this.settings = settings;
        this.clock = clock;
        this.nextDegradeAt = clock.getAsLong() + settings.degradePeriod().toMillis();
    }

    void applied(String key) {
        long now = clock.getAsLong();
        timings.compute(key, (k, t) -> new Timing(now, t == null ? 0 : t.degradedUntil()));
    }

    void forget(String key) {
        timings.remove(key);
        lastReported.remove(key);
    }

    /** Once per degrade period, one of {@code keys} (sorted) starts to crash-loop for half a period. */
    void maybeDegrade(List<String> keys, SplittableRandom random) {
        long period = settings.degradePeriod().toMillis();
        long now = clock.getAsLong();
        if (period == 0 || keys.isEmpty() || now < nextDegradeAt) {
            return;
        }
        nextDegradeAt = now + period;
        String key = keys.get(random.nextInt(keys.size()));
        timings.compute(key, (k, t) -> new Timing(t == null ? 0 : t.appliedAt(), now + period / 2));
    }

    /** The status of the resource {@code key} whose state is {@code state}; null when the status is not simulated. */
    Object of(String key, Object state) {
        if (!settings.simulatesStatus() || state == null) {
            return null;
        }
        long replicas = state instanceof Map<?, ?> m && m.get("replicas") instanceof Number n ? n.longValue() : 1;
        Timing t = timings.getOrDefault(key, new Timing(0, 0));
        long now = clock.getAsLong();
        long step = settings.readyStep().toMillis();
        long ready = step == 0 ? replicas : Math.min(replicas, Math.max(0, (now - t.appliedAt()) / step));
        boolean crashLooping = now < t.degradedUntil();
        if (crashLooping) {
            ready = Math.min(ready, Math.max(0, replicas - 1));
        }
        return Map.of("replicas", replicas, "readyReplicas", ready, "crashLooping", crashLooping ? 1L : 0L);
    }

    /** Whether the status of {@code key} differs from the one this last returned true for. */
    boolean changed(String key, Object state) {
        Object now = of(key, state);
        Object before = now == null ? lastReported.remove(key) : lastReported.put(key, now);
        return now != null && !now.equals(before);
    }
}
