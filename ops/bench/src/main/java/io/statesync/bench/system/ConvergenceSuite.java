package io.statesync.bench.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Suite 3: {@code resources} new resources written while statesync and a zero-latency agent run; the time until
 * the resources topic shows every one Synced at its generation. Then a spec change on 10% of them and the time
 * until all are Synced again. Each run has its own topics and application id.
 */
public final class ConvergenceSuite {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    /**
     * A run is short (seconds), and statesync's per-record path is large: after one warm-up run the JIT compilers
     * still take a large share of this machine's two cores during the next runs, which then measure compilation
     * rather than the pipeline. Warm-up runs go on until the compilers spend less than this share of a run's wall
     * time compiling, or {@link #MAX_WARM_UPS} runs.
     */
    static final double QUIET_JIT_SHARE = 0.10;
    static final int MAX_WARM_UPS = 4;

    private final BenchCluster cluster;
    private final int resources;

    public ConvergenceSuite(BenchCluster cluster, int resources) {
        this.cluster = cluster;
        this.resources = resources;
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        Table table = new Table(String.format("Convergence: %,d new resources, then a spec change on 10%%, zero-latency agent", resources),
            "run", "create -> all Synced (s)", "10% change -> all Synced (s)", "JIT compile time / run time",
            "guarantee", "commit.interval.ms");
        List<Double> create = new ArrayList<>();
        List<Double> change = new ArrayList<>();
        int warmUps = 0;
        boolean warm = false;
        while (!warm) {
            Measured m = measured(overrides);
            warmUps++;
            warm = m.jitShare() < QUIET_JIT_SHARE || warmUps == MAX_WARM_UPS;
            m.report(table, "warm-up " + warmUps, "warm-up " + warmUps + " (discarded)");
        }
        for (int r = 1; r <= runs; r++) {
            Measured m = measured(overrides);
            m.report(table, "run " + r, r);
            create.add(m.created());
            change.add(m.changed());
        }
        table.row("**median**", Stats.median(create), Stats.median(change), "", "", "");
        return table.render();
    }

    /** One run's two times and how much of its wall time the JIT compilers spent compiling (their threads summed). */
    private record Measured(double created, double changed, double jitShare, String guarantee, long commit) {

        /** On stderr as {@code name} as the run ends, and as the table's row {@code row}. */
        void report(Table table, String name, Object row) {
            System.err.printf("  %s: created %.2f s, changed %.2f s, JIT %.2f of the run%n", name, created, changed, jitShare);
            table.row(row, created, changed, jitShare, guarantee, commit);
        }
    }

    private Measured measured(Map<String, Object> overrides) throws Exception {
        AppConfig config = cluster.newRun("convergence", overrides);
        long jit0 = ClientCpu.compileMillis();
        long t0 = System.nanoTime();
        double[] s = oneRun(config);
        double wallMs = (System.nanoTime() - t0) / 1e6;
        double jitShare = (ClientCpu.compileMillis() - jit0) / wallMs;
        return new Measured(s[0], s[1], jitShare, config.getString(AppConfig.PROCESSING_GUARANTEE),
            config.getLong(AppConfig.COMMIT_INTERVAL_MS));
    }

    private double[] oneRun(AppConfig config) throws Exception {
        TopicNames topics = new TopicNames(config.topicPrefix());
        SchemaWarmup.statesync(new TopologySerdes(config), topics, config.getString(AppConfig.APPLICATION_ID));
        try (StreamsRun app = StreamsRun.statesync(config).start();
             EchoAgent agent = new EchoAgent(config).start();
             ResourceWatcher watcher = new ResourceWatcher(config, resources)) {
            app.awaitRunning(Duration.ofMinutes(2));
            long t0 = System.nanoTime();
            writeDesired(config, topics, 0, 1, 0);
            double created = (watcher.awaitAllSynced(TIMEOUT) - t0) / 1e9;
            for (int k = 0; k < resources; k += 10) {
                watcher.expect(k, 2);
            }
            long t1 = System.nanoTime();
            writeDesired(config, topics, 0, 10, 1);
            double changed = (watcher.awaitAllSynced(TIMEOUT) - t1) / 1e9;
            return new double[] {created, changed};
        }
    }

    /** Writes resources {@code from, from+step, ...} with spec revision {@code revision}. */
    private void writeDesired(AppConfig config, TopicNames topics, int from, int step, long revision) {
        Serializer<DesiredState> ser = new TopologySerdes(config).desired().serializer();
        try (KafkaProducer<String, byte[]> producer = Workload.fastProducer(config)) {
            for (int k = from; k < resources; k += step) {
                DesiredState d = Workload.desired(k, Workload.spec(revision, 3));
                producer.send(new ProducerRecord<>(topics.desired(), Workload.key(k), ser.serialize(topics.desired(), d)));
            }
        }
    }
}
