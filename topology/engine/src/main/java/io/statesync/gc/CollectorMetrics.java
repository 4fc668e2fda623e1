package io.statesync.gc;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The garbage collector's metrics. Commands are counted where they are emitted (the owner's task) and where they are
 * processed (the dependent's task), which may be different instances, so the queue of pending commands is the
 * difference of the two sums over all instances; the gauges count what this instance's tasks hold.
 */
public final class CollectorMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> indexEntries = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> waiting = new ConcurrentHashMap<>();

    public CollectorMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("statesync_gc_dependents_index_entries", () -> sum(indexEntries))
            .description("Entries in the dependents index of this instance's tasks (one per owner and dependent)")
            .register(registry);
        Gauge.builder("statesync_gc_foreground_waiting", () -> waiting.values().stream().mapToLong(Set::size).sum())
            .description("Owners in a foreground deletion, waiting for their blocking dependents to go")
            .register(registry);
        for (String p : new String[] {"Background", "Foreground", "Orphan"}) {
            collectedCounter(p);
        }
        emittedCounter("DELETE");
        emittedCounter("ORPHAN");
        processedCounter("applied");
        processedCounter("ignored");
    }

    /** A dependent deleted (Background, Foreground) or orphaned (Orphan) by the collector. */
    public void collected(String policy) {
        collectedCounter(policy).increment();
    }

    public void commandEmitted(String action) {
        emittedCounter(action).increment();
    }

    /** A command reached its dependent: applied, or ignored because the dependent no longer names that owner. */
    public void commandProcessed(boolean applied) {
        processedCounter(applied ? "applied" : "ignored").increment();
    }

    public void indexCount(String task, long entries) {
        indexEntries.put(task, new AtomicLong(entries));
    }

    public void indexDelta(String task, long delta) {
        indexEntries.computeIfAbsent(task, t -> new AtomicLong()).addAndGet(delta);
    }

    public void foregroundWaiting(String task, String ownerKey, boolean waits) {
        Set<String> owners = waiting.computeIfAbsent(task, t -> ConcurrentHashMap.newKeySet());
        if (waits) {
            owners.add(ownerKey);
        } else {
            owners.remove(ownerKey);
        }
    }

    /** {@code task} left this instance. */
    public void taskClosed(String task) {
        indexEntries.remove(task);
        waiting.remove(task);
    }

    private static long sum(Map<String, AtomicLong> m) {
        return m.values().stream().mapToLong(AtomicLong::get).sum();
    }

    private Counter collectedCounter(String policy) {
        return counters.computeIfAbsent("collected|" + policy, k -> Counter.builder("statesync_gc_collected_total")
            .description("Dependents the garbage collector deleted or orphaned, by propagation policy")
            .tag("policy", policy).register(registry));
    }

    private Counter emittedCounter(String action) {
        return counters.computeIfAbsent("emitted|" + action, k -> Counter.builder("statesync_gc_commands_emitted_total")
            .description("Collect commands the owners' tasks emitted, by action").tag("action", action).register(registry));
    }

    private Counter processedCounter(String result) {
        return counters.computeIfAbsent("processed|" + result, k -> Counter.builder("statesync_gc_commands_processed_total")
            .description("Collect commands the dependents' tasks processed, by result").tag("result", result).register(registry));
    }
}
