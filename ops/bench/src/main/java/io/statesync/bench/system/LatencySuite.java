package io.statesync.bench.system;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.ObservedState;
import io.statesync.config.AppConfig;
import io.statesync.schemas.Values;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;

/**
 * Suite 2: statesync (as {@code StatesyncApp} runs its topology) plus {@link EchoAgent}. After {@code keys}
 * resources are created and Synced, an open-loop producer writes at a fixed rate and each write's latency runs from
 * its intended send time to the correction that answers it on statesync.corrections, read read_committed.
 * <ul>
 * <li>desired: each write is a new spec (a {@code seq} field), so it always needs a correction;</li>
 * <li>drift: each write is an observation at the current generation whose {@code replicas} differs from desired.</li>
 * </ul>
 * Every (phase, guarantee, run) has its own topics and application id, so an overloaded run's backlog never
 * delays the next one.
 */
public final class LatencySuite {

    static final String EOS = "exactly_once_v2";
    static final String ALOS = "at_least_once";
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    /** A rate is sustained when every write is answered within the drain time and p99 stays under this. */
    private static final double SUSTAINED_P99_MS = 1_000;
    /** {@code statesync}, {@code floor} for {@link FloorTopology#answering}, or {@code contract-floor} for {@link FloorTopology#contract}. */
    private static final String CONTENDER = System.getProperty("statesync.bench.latency", "statesync");

    enum Phase { DESIRED, DRIFT }

    /**
     * {@code issued}: from the intended send to the correction's issuedAt, i.e. before the commit makes it visible.
     * {@code cpuMicrosPerWrite}: CPU of the contender's threads (stream threads and its clients' network threads) from
     * the first write to the end of the drain, per write sent: the cost that sets the rate it can hold, steadier than
     * its latencies when comparing two builds. {@code coresBusy}: CPU of the whole JVM (broker, agent, load and
     * collector included) over the same span, divided by its wall-clock time: how much of the machine the rate takes.
     */
    record Result(Latencies latencies, Latencies issued, double achievedRate, long sent, long answered, long commitMs,
                  double cpuMicrosPerWrite, double coresBusy) {
        boolean sustained(double target) {
            return answered == sent && achievedRate >= 0.95 * target && latencies.p99() <= SUSTAINED_P99_MS;
        }
    }

    private final BenchCluster cluster;
    private final int rate;
    private final int seconds;
    private final int keys;
    private final int drainSeconds;
    private final boolean searchSustainedRate;

    public LatencySuite(BenchCluster cluster, int rate, int seconds, int keys, boolean searchSustainedRate) {
        this.cluster = cluster;
        this.rate = rate;
        this.seconds = seconds;
        this.keys = keys;
        this.drainSeconds = Math.max(3, seconds / 4);
        this.searchSustainedRate = searchSustainedRate;
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        List<String> guarantees = overrides.containsKey(AppConfig.PROCESSING_GUARANTEE)
            ? List.of(String.valueOf(overrides.get(AppConfig.PROCESSING_GUARANTEE))) : List.of(EOS, ALOS);
        Table table = new Table(String.format("Latency (%s): %,d writes/s for %d s over %,d keys, zero-latency agent (ms from intended send to correction, read_committed)",
            CONTENDER, rate, seconds, keys), "phase", "guarantee", "commit.interval.ms", "run", "achieved writes/s", "answered / sent",
            "p50", "p99", "p99.9", "max", "issued p50", "issued p99", "CPU µs/write",
            "JVM cores busy");
        Result warm = measure(Phase.DESIRED, guarantees.get(0), rate, seconds, overrides);
        row(table, Phase.DESIRED, guarantees.get(0), "warm-up (discarded)", warm);
        for (Phase phase : Phase.values()) {
            for (String guarantee : guarantees) {
                List<Result> results = new ArrayList<>();
                for (int r = 1; r <= runs; r++) {
                    Result res = measure(phase, guarantee, rate, seconds, overrides);
                    results.add(res);
                    row(table, phase, guarantee, String.valueOf(r), res);
                }
                medianRow(table, phase, guarantee, results);
            }
        }
        return table.render() + (searchSustainedRate ? sustainedRate(guarantees.get(0), overrides) : "");
    }

    private static void row(Table table, Phase phase, String guarantee, String run, Result r) {
        Latencies l = r.latencies();
        table.row(phase.name().toLowerCase(), guarantee, r.commitMs(), run, r.achievedRate(),
            String.format("%,d / %,d", r.answered(), r.sent()), l.p50(), l.p99(), l.p999(), l.max(),
            r.issued().count() == 0 ? "" : r.issued().p50(), r.issued().count() == 0 ? "" : r.issued().p99(),
            r.cpuMicrosPerWrite(), r.coresBusy());
    }

    private static void medianRow(Table table, Phase phase, String guarantee, List<Result> results) {
        List<Latencies> l = results.stream().map(Result::latencies).toList();
        table.row(phase.name().toLowerCase(), guarantee, results.get(0).commitMs(), "**median**",
            Stats.median(results.stream().map(Result::achievedRate).toList()), "",
            Latencies.median(l, Latencies::p50), Latencies.median(l, Latencies::p99), Latencies.median(l, Latencies::p999),
            Latencies.median(l, Latencies::max), issuedMedian(results, Latencies::p50), issuedMedian(results, Latencies::p99),
            Stats.median(results.stream().map(Result::cpuMicrosPerWrite).toList()),
            Stats.median(results.stream().map(Result::coresBusy).toList()));
    }

    private static Object issuedMedian(List<Result> results, ToDoubleFunction<Latencies> field) {
        List<Latencies> issued = results.stream().map(Result::issued).filter(i -> i.count() > 0).toList();
        return issued.isEmpty() ? "" : Latencies.median(issued, field);
    }

    /** Halves the rate until one is sustained, then tries halfway back up once: the highest rate this machine holds. */
    private String sustainedRate(String guarantee, Map<String, Object> overrides) throws Exception {
        int ladderSeconds = Math.max(5, seconds / 3);
        Table table = new Table(String.format("Highest sustained rate, desired writes, %s, %d s per step (sustained: all answered, p99 <= %.0f ms)",
            guarantee, ladderSeconds, SUSTAINED_P99_MS), "target writes/s", "achieved writes/s", "answered / sent", "p50", "p99", "p99.9", "max", "sustained", "CPU µs/write",
            "JVM cores busy");
        int failed = rate;
        for (int r = rate / 2; r >= 250; r /= 2) {
            if (step(table, guarantee, r, ladderSeconds, overrides)) {
                step(table, guarantee, (r + failed) / 2, ladderSeconds, overrides);
                break;
            }
            failed = r;
        }
        return table.render();
    }

    private boolean step(Table table, String guarantee, int target, int stepSeconds, Map<String, Object> overrides) throws Exception {
        Result r = measure(Phase.DESIRED, guarantee, target, stepSeconds, overrides);
        Latencies l = r.latencies();
        table.row(target, r.achievedRate(), String.format("%,d / %,d", r.answered(), r.sent()), l.p50(), l.p99(), l.p999(), l.max(),
            r.sustained(target) ? "yes" : "no", r.cpuMicrosPerWrite(), r.coresBusy());
        return r.sustained(target);
    }

    private Result measure(Phase phase, String guarantee, int target, int runSeconds, Map<String, Object> overrides) throws Exception {
        Map<String, Object> o = new HashMap<>(overrides);
        o.put(AppConfig.PROCESSING_GUARANTEE, guarantee);
        AppConfig config = cluster.newRun("latency", o);
        SchemaWarmup.statesync(new TopologySerdes(config), new TopicNames(config.topicPrefix()), config.getString(AppConfig.APPLICATION_ID));
        ReconcileMetrics metrics = StreamsRun.unexportedMetrics();
        try (StreamsRun app = new StreamsRun(contender(config, metrics),
                StatesyncTopology.streamsProperties(config, metrics)).start();
             EchoAgent agent = new EchoAgent(config).start()) {
            app.awaitRunning(Duration.ofMinutes(2));
            preload(config);
            Result r = openLoop(config, phase, target, runSeconds);
            System.err.printf("  %s %s %,d/s: achieved %,.0f/s, answered %,d / %,d, p99 %.1f ms%n", phase, guarantee, target,
                r.achievedRate(), r.answered(), r.sent(), r.latencies().p99());
            return r;
        }
    }

    /**
     * statesync's topology, or with {@code -Dstatesync.bench.latency=floor} the suite's floor
     * ({@link FloorTopology#answering}), under the same Streams properties, agent and load.
     */
    private static Topology contender(AppConfig config, ReconcileMetrics metrics) {
        if ("floor".equals(CONTENDER)) {
            return FloorTopology.answering(new TopicNames(config.topicPrefix()), new TopologySerdes(config));
        }
        if ("contract-floor".equals(CONTENDER)) {
            return FloorTopology.contract(config);
        }
        return StatesyncTopology.build(config, metrics, Clock.systemUTC());
    }

    /** Every key exists and is Synced before the clock starts, so the phase measures updates, not creations. */
    private void preload(AppConfig config) {
        Workload.writeResources(config, keys);
        try (ResourceWatcher watcher = new ResourceWatcher(config, keys)) {
            watcher.awaitAllSynced(TIMEOUT);
        }
    }

    private Result openLoop(AppConfig config, Phase phase, int target, int runSeconds) throws Exception {
        TopicNames topics = new TopicNames(config.topicPrefix());
        TopologySerdes serdes = new TopologySerdes(config);
        OpenLoop schedule = new OpenLoop(target);
        PendingWrites pending = new PendingWrites(keys, schedule);
        OpenLoop.Done done;
        String appId = config.getString(AppConfig.APPLICATION_ID);
        Map<String, Long> offsetsAtStart;
        long cpuAtStart;
        long jvmCpuAtStart;
        long wallAtStart;
        try (CorrectionTracker tracker = new CorrectionTracker(config, (c, arrived) -> answer(phase, pending, c, arrived)).start();
             KafkaProducer<String, byte[]> producer = Workload.latencyProducer(config)) {
            Serializer<DesiredState> ds = serdes.desired().serializer();
            Serializer<ObservedState> os = serdes.observed().serializer();
            offsetsAtStart = offsets(appId);
            cpuAtStart = ClientCpu.nanos(appId);
            jvmCpuAtStart = ClientCpu.processNanos();
            wallAtStart = System.nanoTime();
            done = schedule.run(runSeconds, (i, due) -> {
                int k = (int) (i % keys);
                producer.send(phase == Phase.DESIRED
                    ? new ProducerRecord<>(topics.desired(), Workload.key(k), ds.serialize(topics.desired(), Workload.desired(k, newSpec(i))))
                    : new ProducerRecord<>(topics.observed(), Workload.key(k), os.serialize(topics.observed(), drift(k))));
                pending.sent(i + 1);
            });
            long drainUntil = System.nanoTime() + drainSeconds * 1_000_000_000L;
            while (pending.answered() < done.count() && System.nanoTime() < drainUntil) {
                Thread.sleep(20);
            }
        }
        double cpuPerWrite = (ClientCpu.nanos(appId) - cpuAtStart) / 1e3 / Math.max(1, done.count());
        double coresBusy = (double) (ClientCpu.processNanos() - jvmCpuAtStart) / (System.nanoTime() - wallAtStart);
        System.err.printf("  offsets per write: %s%n", TopicOffsets.perWrite(offsetsAtStart, offsets(appId), appId, done.count()));
        Latencies latencies = Latencies.of(pending.close(System.nanoTime()));
        return new Result(latencies, Latencies.of(pending.issued()), done.rate(), done.count(), pending.answered(),
            config.getLong(AppConfig.COMMIT_INTERVAL_MS), cpuPerWrite, coresBusy);
    }

    /** What each of the run's topics holds, to tell how many records (and commit markers) a contender writes per write. */
    private Map<String, Long> offsets(String appId) throws Exception {
        try (var admin = cluster.admin()) {
            return TopicOffsets.snapshot(admin, appId);
        }
    }

    private static void answer(Phase phase, PendingWrites pending, Correction c, long arrived) {
        String name = c.getName();
        int k = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        if (phase == Phase.DRIFT) {
            pending.completeIssuedBefore(k, c.getIssuedAt().toEpochMilli(), arrived);
        } else if (Values.toJava(c.getDesiredSpec()) instanceof Map<?, ?> spec && spec.get("seq") instanceof Long seq) {
            pending.complete(k, seq, arrived);
            pending.issued(seq, c.getIssuedAt().toEpochMilli());
        }
    }

    /** A spec no agent has applied yet: the write's index makes it unique. */
    private static Map<String, Object> newSpec(long i) {
        Map<String, Object> spec = Workload.spec(1, 3);
        spec.put("seq", i);
        return spec;
    }

    /** The preloaded resource (generation 1, spec revision 0) observed with 4 replicas instead of 3. */
    private static ObservedState drift(int k) {
        return Workload.observed(k, 1, Workload.spec(0, 4), null);
    }
}
