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
    private static final int WARM_UP_RECORDS = 100_000;
    private static final int WARM_UP_KEYS = 10_000;

    private final BenchCluster cluster;
    private final int records;
    private final int keys;

    public ThroughputSuite(BenchCluster cluster, int records, int keys) {
        this.cluster = cluster;
        this.records = records;
        this.keys = keys;
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        Inputs inputs = prepare(overrides, records, keys);
        // The warm-up only has to warm the JIT and the broker: at most a quick-sized input, so that a full-size
        // invocation does not spend much of its time on a discarded run.
        Inputs warmUp = records <= WARM_UP_RECORDS ? inputs : prepare(overrides, WARM_UP_RECORDS, Math.min(keys, WARM_UP_KEYS));
        AppConfig config = inputs.config();
        Table table = new Table(String.format("Topology throughput: %,d desired + %,d observed over %,d keys, %s, %d threads, %d partitions",
                records, records, keys, config.getString(AppConfig.PROCESSING_GUARANTEE), config.getInt(AppConfig.NUM_STREAM_THREADS),
                BenchCluster.PARTITIONS),
            "run", "statesync rec/s", "naive DSL rec/s", "raw consumer rec/s", "floor rec/s", "statesync / naive", "statesync / raw",
            "naive / raw", "floor / naive", "statesync / floor", "statesync CPU µs/rec", "naive CPU µs/rec", "floor CPU µs/rec",
            "CPU: naive / statesync", "CPU: floor / statesync", "statesync JVM CPU µs/rec", "naive JVM CPU µs/rec");
        List<double[]> samples = new ArrayList<>();
        for (int r = 0; r <= runs; r++) {
            double[] s = oneRun(r == 0 ? warmUp : inputs, r);
            // Each run as it ends, so that an interrupted full-size invocation still leaves its figures.
            System.err.printf("  run %d: statesync %,.0f rec/s, naive %,.0f rec/s, raw %,.0f rec/s, floor %,.0f rec/s;"
                + " CPU µs/rec statesync %.1f, naive %.1f, floor %.1f; JVM CPU µs/rec statesync %.1f, naive %.1f%n",
                r, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]);
            if (r > 0) {
                samples.add(s);
            }
            String label = r > 0 ? String.valueOf(r) : String.format("warm-up (discarded, %,d + %,d)", warmUp.records(), warmUp.records());
            table.row(label, s[0], s[1], s[2], s[3], s[0] / s[1], s[0] / s[2], s[1] / s[2], s[3] / s[1], s[0] / s[3],
                s[4], s[5], s[6], s[5] / s[4], s[6] / s[4], s[7], s[8]);
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
            median(samples, 7), median(samples, 8));
        return table.render();
    }

    private record Inputs(AppConfig config, TopicNames topics, Map<TopicPartition, Long> ends, int records) {
    }

    /** Fresh topics holding {@code n} desired and {@code n} observed records. */
    private Inputs prepare(Map<String, Object> overrides, int n, int keyCount) throws Exception {
        AppConfig config = cluster.newRun("throughput", overrides);
        TopicNames topics = new TopicNames(config.topicPrefix());
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(NaiveDslTopology.outputTopic(topics), BenchCluster.PARTITIONS, (short) 1)))
                .all().get();
            Workload.produce(config, n, keyCount);
            return new Inputs(config, topics, Offsets.endOffsets(admin, List.of(topics.desired(), topics.observed())), n);
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
        return new double[] {s[0], n[0], raw, floor[0], s[1], n[1], floor[1], s[2], n[2]};
    }

    /**
     * Input records/s, the CPU microseconds the app's own threads spent per input record from its first RUNNING (so
     * without start-up: opening stores and joining the group cost each contender differently, once), and those of the
     * whole JVM over the same span. The JVM's figure adds what the contender makes others do: the broker storing its
     * writes, RocksDB's compactions, the garbage collector. On a machine whose cores are all busy the rate follows it.
     */
    private double[] measure(Topology topology, Properties base, String appId, Map<TopicPartition, Long> ends) throws Exception {
        Properties props = StreamsRun.withIdentity(base, appId, cluster.dir().resolve("state").resolve(appId));
        try (Admin admin = cluster.admin(); StreamsRun run = new StreamsRun(topology, props).start()) {
            long start = run.awaitRunning(Duration.ofMinutes(2));
            long cpuAtStart = ClientCpu.nanos(appId);
            long jvmAtStart = ClientCpu.processNanos();
            long end = Offsets.awaitCommitted(admin, appId, ends, TIMEOUT.toMillis());
            long total = Offsets.total(ends);
            return new double[] {total / ((end - start) / 1e9), (ClientCpu.nanos(appId) - cpuAtStart) / 1e3 / total,
                (ClientCpu.processNanos() - jvmAtStart) / 1e3 / total};
        }
    }
}
