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

    private final BenchCluster cluster;
    private final int resources;

    public ConvergenceSuite(BenchCluster cluster, int resources) {
        this.cluster = cluster;
        this.resources = resources;
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        Table table = new Table(String.format("Convergence: %,d new resources, then a spec change on 10%%, zero-latency agent", resources),
            "run", "create -> all Synced (s)", "10% change -> all Synced (s)", "guarantee", "commit.interval.ms");
        List<Double> create = new ArrayList<>();
        List<Double> change = new ArrayList<>();
        for (int r = 0; r <= runs; r++) {
            AppConfig config = cluster.newRun("convergence", overrides);
            double[] s = oneRun(config);
            System.err.printf("  run %d: created %.2f s, changed %.2f s%n", r, s[0], s[1]);
            String guarantee = config.getString(AppConfig.PROCESSING_GUARANTEE);
            long commit = config.getLong(AppConfig.COMMIT_INTERVAL_MS);
            if (r == 0) {
                table.row("warm-up (discarded)", s[0], s[1], guarantee, commit);
                continue;
            }
            create.add(s[0]);
            change.add(s[1]);
            table.row(r, s[0], s[1], guarantee, commit);
        }
        table.row("**median**", Stats.median(create), Stats.median(change), "", "");
        return table.render();
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
