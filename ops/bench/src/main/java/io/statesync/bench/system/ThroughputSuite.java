package io.statesync.bench.system;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.statesync.config.AppConfig;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * Suite 1: input records/s of statesync, of the naive DSL baseline and of a raw consumer, all reading the same
 * pre-produced topics on the same broker in the same run. Each contender gets a fresh application id and state
 * directory; the clock runs from its first RUNNING to the moment its committed offsets reach the input end offsets.
 */
public final class ThroughputSuite {

    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    /**
     * Three writes per key over the measured runs' key count: a key count that fits the decoded-state cache would never
     * read a state from the store, and those paths would still be compiling in the first measured run.
     */
    private static final int WARM_UP_WRITES_PER_KEY = 3;

    private final BenchCluster cluster;
    private final int records;
    private final int keys;

    public ThroughputSuite(BenchCluster cluster, int records, int keys) {
        this.cluster = cluster;
        this.records = records;
        this.keys = keys;
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        // Warm-ups only have to warm the JIT and the broker: the measured runs' keys, few writes each, so that a
        // full-size invocation does not spend much of its time on discarded runs; they go on as the convergence
        // suite's do, until the compilers are quiet during statesync's run.
        int warmUpRecords = Math.min(records, WARM_UP_WRITES_PER_KEY * keys);
        Inputs warmUp = prepare(overrides, warmUpRecords, keys);
        Table table = table(warmUp.config());
        for (int warmUps = 1; ; warmUps++) {
            double[] s = oneRun(warmUp, 0);
            report(table, String.format("warm-up %d (discarded, %,d + %,d)", warmUps, warmUpRecords, warmUpRecords), s);
            if (s[9] < ConvergenceSuite.QUIET_JIT_SHARE || warmUps == ConvergenceSuite.MAX_WARM_UPS) {
                break;
            }
            warmUp = prepare(overrides, warmUpRecords, keys);
        }
        List<double[]> samples = new ArrayList<>();
        for (int r = 1; r <= runs; r++) {
            // Each run reads inputs produced just before it, so that every run's observations are as fresh when read
            // as the first run's: replayed minutes later, they would pass the staleness bound in later runs only.
            double[] s = oneRun(prepare(overrides, records, keys), r);
            samples.add(s);
            report(table, String.valueOf(r), s);
        }
        table.row("**median**", median(samples, 0), median(samples, 1), median(samples, 2), median(samples, 3),
            Stats.median(samples.stream().map(s -> s[0] / s[1]).toList()),
            Stats.median(samples.stream().map(s -> s[0] / s[2]).toList()),
            Stats.median(samples.stream().map(s -> s[1] / s[2]).toList()),
            Stats.median(samples.stream().map(s -> s[3] / s[1]).toList()),
            Stats.median(samples.stream().map(s -> s[0] / s[3]).toList()),
            median(samples, 4), median(samples, 5), median(samples, 6),
            Stats.median(samples.stream().map(s -> s[5] / s[4]).toList()),
            Stats.median(samples.stream().map(s -> s[6] / s[4]).toList()),
            median(samples, 7), median(samples, 8), median(samples, 9), median(samples, 10));
        return table.render();
    }

    private Table table(AppConfig config) {
        return new Table(String.format("Topology throughput: %,d desired + %,d observed over %,d keys, %s, %d threads, %d partitions",
                records, records, keys, config.getString(AppConfig.PROCESSING_GUARANTEE), config.getInt(AppConfig.NUM_STREAM_THREADS),
                BenchCluster.PARTITIONS),
            "run", "statesync rec/s", "naive DSL rec/s", "raw consumer rec/s", "floor rec/s", "statesync / naive", "statesync / raw",
            "naive / raw", "floor / naive", "statesync / floor", "statesync CPU µs/rec", "naive CPU µs/rec", "floor CPU µs/rec",
            "CPU: naive / statesync", "CPU: floor / statesync", "statesync JVM CPU µs/rec", "naive JVM CPU µs/rec",
            "statesync JIT / run", "naive JIT / run");
    }

    /** One run's row, and its figures on stderr as it ends, so that an interrupted full-size invocation leaves them. */
    private static void report(Table table, String label, double[] s) {
        System.err.printf("  run %s: statesync %,.0f rec/s, naive %,.0f rec/s, raw %,.0f rec/s, floor %,.0f rec/s;"
            + " CPU µs/rec statesync %.1f, naive %.1f, floor %.1f; JVM CPU µs/rec statesync %.1f, naive %.1f;"
            + " JIT share statesync %.3f, naive %.3f%n", label, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10]);
        table.row(label, s[0], s[1], s[2], s[3], s[0] / s[1], s[0] / s[2], s[1] / s[2], s[3] / s[1], s[0] / s[3],
            s[4], s[5], s[6], s[5] / s[4], s[6] / s[4], s[7], s[8], s[9], s[10]);
    }

    private record Inputs(AppConfig config, TopicNames topics, Map<TopicPartition, Long> ends) {
    }

    /** Fresh topics holding {@code n} desired and {@code n} observed records. */
    private Inputs prepare(Map<String, Object> overrides, int n, int keyCount) throws Exception {
        AppConfig config = cluster.newRun("throughput", overrides);
        TopicNames topics = new TopicNames(config.topicPrefix());
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(NaiveDslTopology.outputTopic(topics), BenchCluster.PARTITIONS, (short) 1)))
                .all().get();
            Workload.produce(config, n, keyCount);
            return new Inputs(config, topics, Offsets.endOffsets(admin, List.of(topics.desired(), topics.observed())));
        }
    }

    private static double median(List<double[]> samples, int i) {
        return Stats.median(samples.stream().map(s -> s[i]).toList());
    }

    /** Alternates which Streams app goes first, so that neither always gets the colder page cache. */
    private double[] oneRun(Inputs inputs, int run) throws Exception {
        AppConfig config = inputs.config();
        TopicNames topics = inputs.topics();
        Map<TopicPartition, Long> ends = inputs.ends();
        ReconcileMetrics metrics = StreamsRun.unexportedMetrics();
        Properties base = StatesyncTopology.streamsProperties(config, metrics);
        Topology statesync = StatesyncTopology.build(config, metrics, Clock.systemUTC());
        Topology naive = NaiveDslTopology.build(topics, new TopologySerdes(config));
        Properties naiveProps = new Properties();
        naiveProps.putAll(base);
        naiveProps.remove(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG);
        naiveProps.remove(ReconcileMetrics.CONFIG_KEY);
        String prefix = base.getProperty(StreamsConfig.APPLICATION_ID_CONFIG) + "-";
        TopologySerdes serdes = new TopologySerdes(config);
        SchemaWarmup.statesync(serdes, topics, prefix + "statesync-" + run);
        SchemaWarmup.naive(serdes, topics, prefix + "naive-" + run);
        double[] s;
        double[] n;
        if (run % 2 == 0) {
            s = measure(statesync, base, prefix + "statesync-" + run, ends);
            n = measure(naive, naiveProps, prefix + "naive-" + run, ends);
        } else {
            n = measure(naive, naiveProps, prefix + "naive-" + run, ends);
            s = measure(statesync, base, prefix + "statesync-" + run, ends);
        }
        double raw = RawConsumer.recordsPerSecond(cluster.bootstrap(), ends);
        // The floor writes to the same resources topic as statesync; it runs last, so statesync's figures are untouched.
        SchemaWarmup.floor(serdes, topics, prefix + "floor-" + run);
        double[] floor = measure(FloorTopology.build(topics, serdes), naiveProps, prefix + "floor-" + run, ends);
        return new double[] {s[0], n[0], raw, floor[0], s[1], n[1], floor[1], s[2], n[2], s[3], n[3]};
    }

    /**
     * Input records/s, the CPU microseconds the app's own threads spent per input record from its first RUNNING (so
     * without start-up: opening stores and joining the group cost each contender differently, once), and those of the
     * whole JVM over the same span. The JVM's figure adds what the contender makes others do: the broker storing its
     * writes, RocksDB's compactions, the garbage collector. On a machine whose cores are all busy the rate follows it.
     * Last, the share of the span the JIT compilers spent compiling (their threads summed): a run is steady only when
     * it is small, since compiling takes the same cores.
     */
    private double[] measure(Topology topology, Properties base, String appId, Map<TopicPartition, Long> ends) throws Exception {
        Properties props = StreamsRun.withIdentity(base, appId, cluster.dir().resolve("state").resolve(appId));
        try (Admin admin = cluster.admin(); StreamsRun run = new StreamsRun(topology, props).start()) {
            long start = run.awaitRunning(Duration.ofMinutes(2));
            long cpuAtStart = ClientCpu.nanos(appId);
            long jvmAtStart = ClientCpu.processNanos();
            long jitAtStart = ClientCpu.compileMillis();
            long end = Offsets.awaitCommitted(admin, appId, ends, TIMEOUT.toMillis());
            long total = Offsets.total(ends);
            return new double[] {total / ((end - start) / 1e9), (ClientCpu.nanos(appId) - cpuAtStart) / 1e3 / total,
                (ClientCpu.processNanos() - jvmAtStart) / 1e3 / total,
                (ClientCpu.compileMillis() - jitAtStart) * 1e6 / (end - start)};
        }
    }
}
