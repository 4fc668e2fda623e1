package io.statesync.topology;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.statesync.avro.Action;
import io.statesync.avro.Reason;
import io.statesync.avro.SyncStatus;

/**
 * The reconcile metrics, named like controller-runtime's. Tags are bounded sets (kind, result, action,
 * reason); a resource key is never a tag, so cardinality stays flat at a million resources.
 */
public final class ReconcileMetrics {

    /** Key under which the instance is handed to handlers that Kafka Streams instantiates by reflection. */
    public static final String CONFIG_KEY = "statesync.metrics.instance";

    private final MeterRegistry registry;
    private final Timer reconcileDuration;
    private final AtomicLong inflight = new AtomicLong();
    private final Map<String, AtomicLong> resourceCounts = new ConcurrentHashMap<>();
    private final Counter staleObservations;
    /** Meters by tag values: building and registering a meter per event cost more than the reconcile decision. */
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> summaries = new ConcurrentHashMap<>();

    public ReconcileMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.reconcileDuration = Timer.builder("statesync_reconcile_duration_seconds")
            .description("Time to reconcile one key").publishPercentileHistogram().register(registry);
        this.staleObservations = Counter.builder("statesync_stale_observations_total")
            .description("Observed reports ignored as stale (older observedAt or another uid)").register(registry);
        Gauge.builder("statesync_inflight_corrections", inflight, AtomicLong::get)
            .description("Corrections issued and not yet converged or expired").register(registry);
        registerZeros();
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Registers the tag-free and the enum-bounded series at 0, so that dashboards and alerts see them before the first event. */
    private void registerZeros() {
        for (String result : new String[] {"accepted", "conflict", "invalid", "noop"}) {
            admissionCounter(result);
        }
        for (String source : new String[] {"desired", "observed", "kinds", "unknown"}) {
            dlqCounter(source);
        }
        reconcileCounter("none", "success");
        correctionCounter("none", Action.UPDATE.name(), Reason.Drift.name());
        conflictCounter("none", "ResourceVersion");
        convergenceSummary("none");
        for (SyncStatus s : SyncStatus.values()) {
            resourceGauge("none", s.name());
        }
    }

    public void reconciled(String kind, String result, long nanos) {
        reconcileCounter(kind, result).increment();
        reconcileDuration.record(Duration.ofNanos(nanos));
    }

    public void correctionEmitted(String kind, String action, String reason) {
        correctionCounter(kind, action, reason).increment();
    }

    public void converged(String kind, long millis) {
        convergenceSummary(kind).record(millis / 1000.0);
    }

    public void conflict(String kind, String type) {
        conflictCounter(kind, type).increment();
    }

    public void admission(String result) {
        admissionCounter(result).increment();
    }

    public void dlq(String source) {
        dlqCounter(source).increment();
    }

    public void staleObservation() {
        staleObservations.increment();
    }

    public void inflightDelta(long delta) {
        inflight.addAndGet(delta);
    }

    /** Moves one resource between sync-status buckets; from or to may be null for a create or a delete. */
    public void statusTransition(String kind, String from, String to) {
        if (from != null) {
            resourceGauge(kind, from).decrementAndGet();
        }
        if (to != null) {
            resourceGauge(kind, to).incrementAndGet();
        }
    }

    /*
     * Each series of a name is registered by one method, with that name's description: Prometheus takes a metric's
     * HELP from the first series registered, which for these is the zero series of registerZeros().
     */

    private Counter reconcileCounter(String kind, String result) {
        return counters.computeIfAbsent("reconcile|" + kind + "|" + result, k -> Counter.builder("statesync_reconcile_total")
            .description("Reconciles by kind and result").tag("kind", kind).tag("result", result).register(registry));
    }

    private Counter correctionCounter(String kind, String action, String reason) {
        return counters.computeIfAbsent("correction|" + kind + "|" + action + "|" + reason, k ->
            Counter.builder("statesync_corrections_emitted_total").description("Corrections emitted, by kind, action and reason")
                .tag("kind", kind).tag("action", action).tag("reason", reason).register(registry));
    }

    private Counter conflictCounter(String kind, String type) {
        return counters.computeIfAbsent("conflict|" + kind + "|" + type, k -> Counter.builder("statesync_conflicts_total")
            .description("CAS and merge conflicts, by kind and type").tag("kind", kind).tag("type", type).register(registry));
    }

    private Counter admissionCounter(String result) {
        return counters.computeIfAbsent("admission|" + result, k -> Counter.builder("statesync_admission_total").description("Admission results")
            .tag("result", result).register(registry));
    }

    private Counter dlqCounter(String source) {
        return counters.computeIfAbsent("dlq|" + source, k -> Counter.builder("statesync_dlq_records_total").description("Records sent to the dead-letter topic")
            .tag("source", source).register(registry));
    }

    private DistributionSummary convergenceSummary(String kind) {
        return summaries.computeIfAbsent(kind, k -> DistributionSummary.builder("statesync_convergence_seconds")
            .description("Time from the desired write to Synced").baseUnit("seconds")
            .tag("kind", kind).publishPercentileHistogram().minimumExpectedValue(0.001).maximumExpectedValue(3600.0)
            .register(registry));
    }

    private AtomicLong resourceGauge(String kind, String status) {
        return resourceCounts.computeIfAbsent(kind + "|" + status, k -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder("statesync_resources", value, AtomicLong::get).description("Resources by kind and sync status")
                .tag("kind", kind).tag("sync_status", status).register(registry);
            return value;
        });
    }
}
