package io.statesync.topology;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.statesync.gc.CollectorMetrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.statesync.avro.Action;
import io.statesync.avro.HealthStatus;
import io.statesync.avro.Reason;
import io.statesync.avro.SyncStatus;

/**
 * The reconcile metrics, named like controller-runtime's. Tags are bounded sets (kind, result, action,
 * reason); a resource key is never a tag, so cardinality stays flat at a million resources.
 */
public final class ReconcileMetrics {

    /** Key under which the instance is handed to handlers that Kafka Streams instantiates by reflection. */
    public static final String CONFIG_KEY = "statesync.metrics.instance";

    /** The conflicts_total type of a field that the merge found changed by someone else and overrode. */
    public static final String FIELD_VALUE_CONFLICT = "FieldValue";
    /** Results a reconcile's duration is tagged with. */
    public static final String RESULT_CONVERGED = "converged";
    public static final String RESULT_CORRECTION = "correction";
    public static final String RESULT_NOOP = "noop";
    public static final String RESULT_ERROR = "error";
    /** Queues statesync_queue_depth counts: keys whose timer is due, keys waiting for the coalesced batch. */
    public static final String QUEUE_TIMER = "timer";
    public static final String QUEUE_BATCH = "batch";

    /** Kinds past metrics.max.kinds when no configuration says otherwise. */
    public static final int DEFAULT_MAX_KINDS = 100;

    private final MeterRegistry registry;
    /** Caps the kind tag's values: every per-kind meter, the histograms included, takes its kind through here. */
    private final KindTags kinds;
    private final Map<String, Timer> durations = new ConcurrentHashMap<>();
    /** Per queue, per task, the keys with pending work as last measured; a gauge per queue sums the tasks. */
    private final Map<String, Map<String, AtomicLong>> queueDepths = new ConcurrentHashMap<>();
    private final CollectorMetrics collector;
    private final AtomicLong inflight = new AtomicLong();
    /** Per task, the resources its store holds by series ("kind|syncStatus|health"); a gauge sums them. */
    private final Map<String, Map<String, AtomicLong>> resourceCounts = new ConcurrentHashMap<>();
    private final Map<String, Boolean> resourceSeries = new ConcurrentHashMap<>();
    private final Counter staleObservations;
    /** Meters by tag values: building and registering a meter per event cost more than the reconcile decision. */
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> summaries = new ConcurrentHashMap<>();

    public ReconcileMetrics(MeterRegistry registry) {
        this(registry, DEFAULT_MAX_KINDS);
    }

    /** Meters whose kind tag takes at most {@code maxKinds} values besides {@link KindTags#OTHER}. */
    public ReconcileMetrics(MeterRegistry registry, int maxKinds) {
        this.registry = registry;
        this.kinds = new KindTags(maxKinds);
        this.collector = new CollectorMetrics(registry);
        this.staleObservations = Counter.builder("statesync_stale_observations_total")
            .description("Observed reports ignored as stale (older observedAt or another uid)").register(registry);
        Gauge.builder("statesync_inflight_corrections", inflight, AtomicLong::get)
            .description("Corrections issued and not yet converged or expired").register(registry);
        registerZeros();
    }

    /** The garbage collector's metrics, on the same registry. */
    public CollectorMetrics collector() {
        return collector;
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
        for (String source : new String[] {"desired", "observed", "other"}) {
            quarantinedCounter(source);
        }
        reconcileCounter("none", "success");
        for (String result : new String[] {RESULT_CONVERGED, RESULT_CORRECTION, RESULT_NOOP, RESULT_ERROR}) {
            durationTimer("none", result);
        }
        for (String queue : new String[] {QUEUE_TIMER, QUEUE_BATCH}) {
            queueGauge(queue);
        }
        conflictCounter("none", FIELD_VALUE_CONFLICT);
        correctionCounter("none", Action.UPDATE.name(), Reason.Drift.name());
        delayedCounter("none");
        conflictCounter("none", "ResourceVersion");
        convergenceSummary("none");
        for (SyncStatus s : SyncStatus.values()) {
            resourceGauge(series("none", s.name(), HealthStatus.Unknown.name()));
        }
        for (HealthStatus h : HealthStatus.values()) {
            resourceGauge(series("none", SyncStatus.Synced.name(), h.name()));
        }
    }

    /**
     * @param decision the planner's decision (statesync_reconcile_total's result)
     * @param result   one of the RESULT_ constants (statesync_reconcile_duration_seconds' result)
     */
    public void reconciled(String kind, String decision, String result, long nanos) {
        String tag = kinds.of(kind);
        reconcileCounter(tag, decision).increment();
        durationTimer(tag, result).record(Duration.ofNanos(nanos));
    }

    /** The keys of {@code task} with pending work in {@code queue} ({@link #QUEUE_TIMER} or {@link #QUEUE_BATCH}). */
    public void queueDepth(String task, String queue, long keys) {
        queueGauge(queue);
        queueDepths.get(queue).computeIfAbsent(task, t -> new AtomicLong()).set(keys);
    }

    public void correctionEmitted(String kind, String action, String reason) {
        correctionCounter(kinds.of(kind), action, reason).increment();
    }

    /** A planned correction of {@code kind} held back because the kind's correction rate was used up. */
    public void correctionDelayed(String kind) {
        delayedCounter(kinds.of(kind)).increment();
    }

    public void converged(String kind, long millis) {
        convergenceSummary(kinds.of(kind)).record(millis / 1000.0);
    }

    public void conflict(String kind, String type) {
        conflictCounter(kinds.of(kind), type).increment();
    }

    public void conflict(String kind, String type, int count) {
        conflictCounter(kinds.of(kind), type).increment(count);
    }

    public void admission(String result) {
        admissionCounter(result).increment();
    }

    /** A dead letter from {@code source}: an input topic or its role; the series is tagged by the role. */
    public void dlq(String source) {
        dlqCounter(source.endsWith("desired") ? "desired" : source.endsWith("observed") ? "observed"
            : source.endsWith("kinds") ? "kinds" : "unknown").increment();
    }

    /**
     * An input whose processing failed went to the DLQ and the task went on (statesync_quarantined_total). The source
     * is the input topic's role (desired, observed or other), so the series exist from the start at 0.
     */
    public void quarantined(String topic) {
        String source = topic.endsWith("desired") ? "desired" : topic.endsWith("observed") ? "observed" : "other";
        quarantinedCounter(source).increment();
    }

    private Counter quarantinedCounter(String source) {
        return counters.computeIfAbsent("quarantined|" + source, k -> Counter.builder("statesync_quarantined_total")
            .description("Inputs sent to the dead-letter topic because processing them failed").tag("source", source)
            .register(registry));
    }

    public void staleObservation() {
        staleObservations.increment();
    }

    public void inflightDelta(long delta) {
        inflight.addAndGet(delta);
    }

    /** The series key of a resource's counts: kind, sync status and health. */
    public static String series(String kind, String syncStatus, String health) {
        return kind + "|" + syncStatus + "|" + health;
    }

    /**
     * Moves one resource of {@code task} from series {@code from} to {@code to} ({@link #series}); either may be
     * null for a resource that appears or goes.
     */
    public void resourceMoved(String task, String from, String to) {
        Map<String, AtomicLong> counts = resourceCounts.computeIfAbsent(task, t -> new ConcurrentHashMap<>());
        if (from != null) {
            counts.computeIfAbsent(capped(from), k -> new AtomicLong()).decrementAndGet();
        }
        if (to != null) {
            String series = capped(to);
            resourceGauge(series);
            counts.computeIfAbsent(series, k -> new AtomicLong()).incrementAndGet();
        }
    }

    /**
     * Replaces {@code task}'s counts with {@code counts}, read from its store when the task is assigned (at start and
     * after a rebalance), so that the gauge says what the stores hold rather than summing transitions.
     */
    public void recounted(String task, Map<String, Long> counts) {
        Map<String, AtomicLong> fresh = new ConcurrentHashMap<>();
        counts.forEach((series, n) -> {
            String capped = capped(series);
            resourceGauge(capped);
            fresh.computeIfAbsent(capped, k -> new AtomicLong()).addAndGet(n);
        });
        resourceCounts.put(task, fresh);
    }

    /** {@code series} with its kind capped: the resources of kinds past the cap count together under {@link KindTags#OTHER}. */
    private String capped(String series) {
        int bar = series.indexOf('|');
        String kind = bar < 0 ? series : series.substring(0, bar);
        String tag = kinds.of(kind);
        return tag.equals(kind) ? series : tag + series.substring(Math.max(bar, 0));
    }

    /** {@code task} left this instance: its resources are counted where it runs now. */
    public void taskClosed(String task) {
        resourceCounts.remove(task);
        queueDepths.values().forEach(depths -> depths.remove(task));
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

    private Counter delayedCounter(String kind) {
        return counters.computeIfAbsent("delayed|" + kind, k -> Counter.builder("statesync_corrections_delayed_total")
            .description("Planned corrections held back by the per-kind correction rate limit, by kind")
            .tag("kind", kind).register(registry));
    }

    private Counter conflictCounter(String kind, String type) {
        return counters.computeIfAbsent("conflict|" + kind + "|" + type, k -> Counter.builder("statesync_conflicts_total")
            .description("CAS and merge conflicts, by kind and type").tag("kind", kind).tag("type", type).register(registry));
    }

    private Timer durationTimer(String kind, String result) {
        return durations.computeIfAbsent(kind + "|" + result, k -> Timer.builder("statesync_reconcile_duration_seconds")
            .description("Time to reconcile one key, by kind and result").tag("kind", kind).tag("result", result)
            .publishPercentileHistogram().register(registry));
    }

    private void queueGauge(String queue) {
        queueDepths.computeIfAbsent(queue, q -> {
            Map<String, AtomicLong> perTask = new ConcurrentHashMap<>();
            Gauge.builder("statesync_queue_depth", perTask, m -> m.values().stream().mapToLong(AtomicLong::get).sum())
                .description("Keys with pending work: a due timer (queue=timer) or a coalesced batch (queue=batch)")
                .tag("queue", q).register(registry);
            return perTask;
        });
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

    private void resourceGauge(String series) {
        resourceSeries.computeIfAbsent(series, k -> {
            String[] tags = k.split("\\|", 3);
            Gauge.builder("statesync_resources", () -> resourceCount(k))
                .description("Resources the stores of this instance's tasks hold, by kind, sync status and health")
                .tag("kind", tags[0]).tag("sync_status", tags[1]).tag("health", tags[2]).register(registry);
            return Boolean.TRUE;
        });
    }

    private long resourceCount(String series) {
        long n = 0;
        for (Map<String, AtomicLong> counts : resourceCounts.values()) {
            AtomicLong c = counts.get(series);
            n += c == null ? 0 : c.get();
        }
        return n;
    }
}
