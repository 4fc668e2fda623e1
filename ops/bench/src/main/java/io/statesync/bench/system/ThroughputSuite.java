package io.statesync.bench.system;

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

    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final BenchCluster cluster;
    private final int records;
    private final int keys;

    public ThroughputSuite(BenchCluster cluster, int records, int keys) {
        this.cluster = cluster;
        this.records = records;
        this.keys = keys;
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        AppConfig config = cluster.newRun("throughput", overrides);
        TopicNames topics = new TopicNames(config.topicPrefix());
        Map<TopicPartition, Long> ends;
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(NaiveDslTopology.outputTopic(topics), BenchCluster.PARTITIONS, (short) 1)))
                .all().get();
            Workload.produce(config, records, keys);
            ends = Offsets.endOffsets(admin, List.of(topics.desired(), topics.observed()));
        }
        Table table = new Table(String.format("Topology throughput: %,d desired + %,d observed over %,d keys, %s, %d threads, %d partitions",
                records, records, keys, config.getString(AppConfig.PROCESSING_GUARANTEE), config.getInt(AppConfig.NUM_STREAM_THREADS),
                BenchCluster.PARTITIONS),
            "run", "statesync rec/s", "naive DSL rec/s", "raw consumer rec/s", "statesync / naive", "statesync / raw", "naive / raw");
        List<double[]> samples = new ArrayList<>();
        for (int r = 0; r <= runs; r++) {
            double[] s = oneRun(config, topics, ends, r);
            if (r == 0) {
                table.row("warm-up (discarded)", s[0], s[1], s[2], s[0] / s[1], s[0] / s[2], s[1] / s[2]);
                continue;
            }
            samples.add(s);
            table.row(r, s[0], s[1], s[2], s[0] / s[1], s[0] / s[2], s[1] / s[2]);
        }
        table.row("**median**", median(samples, 0), median(samples, 1), median(samples, 2),
            Stats.median(samples.stream().map(s -> s[0] / s[1]).toList()),
            Stats.median(samples.stream().map(s -> s[0] / s[2]).toList()),
            Stats.median(samples.stream().map(s -> s[1] / s[2]).toList()));
        return table.render();
    }

    private static double median(List<double[]> samples, int i) {
        return Stats.median(samples.stream().map(s -> s[i]).toList());
    }

    /** Alternates which Streams app goes first, so that neither always gets the colder page cache. */
    private double[] oneRun(AppConfig config, TopicNames topics, Map<TopicPartition, Long> ends, int run) throws Exception {
        Properties base = StatesyncTopology.streamsProperties(config, ReconcileMetrics.global());
        Topology statesync = StatesyncTopology.build(config);
        Topology naive = NaiveDslTopology.build(topics, new TopologySerdes(config));
        Properties naiveProps = new Properties();
        naiveProps.putAll(base);
        naiveProps.remove(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG);
        naiveProps.remove(ReconcileMetrics.CONFIG_KEY);
        String prefix = base.getProperty(StreamsConfig.APPLICATION_ID_CONFIG) + "-";
        TopologySerdes serdes = new TopologySerdes(config);
        SchemaWarmup.statesync(serdes, topics, prefix + "statesync-" + run);
        SchemaWarmup.naive(serdes, topics, prefix + "naive-" + run);
        double s;
        double n;
        if (run % 2 == 0) {
            s = measure(statesync, base, prefix + "statesync-" + run, ends);
            n = measure(naive, naiveProps, prefix + "naive-" + run, ends);
        } else {
            n = measure(naive, naiveProps, prefix + "naive-" + run, ends);
            s = measure(statesync, base, prefix + "statesync-" + run, ends);
        }
        double raw = RawConsumer.recordsPerSecond(cluster.bootstrap(), ends);
        return new double[] {s, n, raw};
    }

    private double measure(Topology topology, Properties base, String appId, Map<TopicPartition, Long> ends) throws Exception {
        Properties props = StreamsRun.withIdentity(base, appId, cluster.dir().resolve("state").resolve(appId));
        try (Admin admin = cluster.admin(); StreamsRun run = new StreamsRun(topology, props).start()) {
            long start = run.awaitRunning(Duration.ofMinutes(2));
            long end = Offsets.awaitCommitted(admin, appId, ends, TIMEOUT.toMillis());
            return Offsets.total(ends) / ((end - start) / 1e9);
        }
    }
}
