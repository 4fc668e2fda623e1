package io.statesync.bench.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Suite 5: a {@link StatesyncApp} (REST included) loads N resources and stops; then the time from {@code start()} to
 * {@code /readyz} 200 with its state directory kept (as a dynamic member that left the group on close, and as a static
 * member that stayed in it), and again with it wiped (a full restore from the changelogs).
 * Baselines for the wiped case, in the same run: bare Streams apps that materialise statesync's changelogs into plain
 * stores, stop, are wiped, and are timed from start to RUNNING. The first restores the same volume as statesync (its
 * three changelogs, one store each: the same records and bytes); the second only the state changelog, which shows what
 * the two index changelogs (timers, revisions) cost on top.
 */
public final class RestartSuite {

    /** Not a Streams key: the bare app's source topics (comma-separated), carried in its properties. */
    private static final String SOURCES = "bench.bare.sources";

    private final BenchCluster cluster;
    private final int resources;
    private final HttpClient http = HttpClient.newHttpClient();

    public RestartSuite(BenchCluster cluster, int resources) {
        this.cluster = cluster;
        this.resources = resources;
    }

    /**
     * Loads the N resources once, and the bare app's copy once: a 1M-resource load takes minutes on this machine and
     * is not what is measured. Each run then restarts statesync on its kept state, wipes it and restarts again
     * (which restores it for the next run), and wipes and restarts the bare app.
     */
    public String run(int runs, Map<String, Object> overrides) throws Exception {
        Table table = new Table(String.format("Restart and restore: %,d resources loaded", resources),
            "run", "state kept: start -> /readyz 200 (s)", "state kept, static member: start -> /readyz 200 (s)",
            "state wiped: start -> /readyz 200 (s)", "bare app, same volume (3 changelogs), wiped: start -> RUNNING (s)",
            "bare (same volume) / statesync (wiped)", "bare app, state changelog only, wiped (s)", "bare (state only) / statesync");
        Map<String, Object> o = new HashMap<>(overrides);
        o.put(ServerConfig.HTTP_PORT, 0);
        AppConfig config = cluster.newRun("restart", o);
        load(config);
        List<String> changelogs = changelogs(config);
        printVolumes(changelogs);
        Properties bareAll = loadBare(config, changelogs, "bare");
        Properties bareState = loadBare(config, changelogs.subList(0, 1), "bare-state");
        Map<String, Object> asStatic = new HashMap<>(config.originals());
        asStatic.put(ServerConfig.GROUP_INSTANCE_ID, "bench-static");
        AppConfig staticConfig = new AppConfig(asStatic);
        List<double[]> samples = new ArrayList<>();
        for (int r = 0; r <= runs; r++) {
            double kept = timeToReady(config);
            double[] s = {kept, staticRestart(staticConfig), wipedRestart(config), bareRestore(bareAll), bareRestore(bareState)};
            System.err.printf("  run %d: kept %.2f s, kept static %.2f s, wiped %.2f s, bare (3 changelogs) wiped %.2f s,"
                + " bare (state only) wiped %.2f s%n", r, s[0], s[1], s[2], s[3], s[4]);
            table.row(r == 0 ? "warm-up (discarded)" : String.valueOf(r), s[0], s[1], s[2], s[3], s[3] / s[2], s[4], s[4] / s[2]);
            if (r > 0) {
                samples.add(s);
            }
        }
        table.row("**median**", med(samples, 0), med(samples, 1), med(samples, 2), med(samples, 3),
            Stats.median(samples.stream().map(s -> s[3] / s[2]).toList()), med(samples, 4),
            Stats.median(samples.stream().map(s -> s[4] / s[2]).toList()));
        return table.render();
    }

    /**
     * A static member's restart on kept state: one untimed start and stop first, so that the members (one per stream
     * thread) stay in the group as a static member's clean stop leaves them, then the timed restart. The members are
     * removed afterwards; otherwise the next, dynamic, start would wait for their session timeout.
     */
    private double staticRestart(AppConfig staticConfig) throws Exception {
        System.err.println("    (static member: untimed first start)");
        timeToReady(staticConfig);
        double seconds = timeToReady(staticConfig);
        try (Admin admin = cluster.admin()) {
            admin.removeMembersFromConsumerGroup(staticConfig.getString(AppConfig.APPLICATION_ID),
                new RemoveMembersFromConsumerGroupOptions()).all().get();
        }
        return seconds;
    }

    /** Wipes the state directory and times the restart, which restores every store for the next run too. */
    private double wipedRestart(AppConfig config) throws Exception {
        deleteTree(Path.of(config.getString(AppConfig.STATE_DIR)));
        return timeToReady(config);
    }

    private static double med(List<double[]> samples, int i) {
        return Stats.median(samples.stream().map(s -> s[i]).toList());
    }

    private void load(AppConfig config) throws Exception {
        TopicNames topics = new TopicNames(config.topicPrefix());
        SchemaWarmup.statesync(new TopologySerdes(config), topics, config.getString(AppConfig.APPLICATION_ID));
        Workload.writeResources(config, resources);
        try (StatesyncApp app = new StatesyncApp(withoutTimers(config)); Admin admin = cluster.admin()) {
            app.start();
            var ends = Offsets.endOffsets(admin, List.of(topics.desired()));
            Offsets.awaitCommitted(admin, config.getString(AppConfig.APPLICATION_ID), ends, Duration.ofMinutes(60).toMillis());
        }
    }

    /**
     * The load's config: no agent answers here, so every resource's deadline timer fires during the load, and once the
     * decoded-state cache is full each timer visit is a store read and a decode, which slows a large load to a crawl on a
     * small machine. The timed restarts keep the default timer.
     */
    static AppConfig withoutTimers(AppConfig config) {
        Map<String, Object> props = new HashMap<>(config.originals());
        props.put(AppConfig.RESYNC_INTERVAL_MS, 3_600_000L);
        return new AppConfig(props);
    }

    private double timeToReady(AppConfig config) throws Exception {
        long start = System.nanoTime();
        try (StatesyncApp app = new StatesyncApp(config)) {
            try (StartSampler sampler = new StartSampler()) {
                app.start();
                System.err.printf("    +%.2f s: start() returned; where it waited: %s", (System.nanoTime() - start) / 1e9, sampler.top(8));
            }
            URI readyz = URI.create("http://127.0.0.1:" + app.httpPort() + "/readyz");
            String reason = "";
            HttpResponse<String> response;
            while ((response = http.send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.ofString())).statusCode() != 200) {
                // Each change of the 503 reason, timed: that is where a slow restart spends its time.
                if (!response.body().equals(reason)) {
                    reason = response.body();
                    System.err.printf("    +%.2f s: %s%n", (System.nanoTime() - start) / 1e9, reason);
                }
                Thread.sleep(20);
            }
            return (System.nanoTime() - start) / 1e9;
        }
    }

    /** statesync's changelogs, the state store's first. */
    private static List<String> changelogs(AppConfig config) {
        String appId = config.getString(AppConfig.APPLICATION_ID);
        return Stream.of(StatesyncTopology.STATE_STORE, StatesyncTopology.TIMER_STORE, StatesyncTopology.REVISION_STORE)
            .map(store -> appId + "-" + store + "-changelog").toList();
    }

    /** What a restore replays: the offsets in each changelog (records, plus transaction markers under EOS). */
    private void printVolumes(List<String> changelogs) throws Exception {
        try (Admin admin = cluster.admin()) {
            for (String topic : changelogs) {
                System.err.printf("  %s: %,d offsets%n", topic, Offsets.total(Offsets.endOffsets(admin, List.of(topic))));
            }
        }
    }

    /** A bare app that materialises {@code sources} into one plain store each; returns its properties. */
    private Properties loadBare(AppConfig config, List<String> sources, String suffix) throws Exception {
        String appId = config.getString(AppConfig.APPLICATION_ID) + "-" + suffix;
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, config.getString(AppConfig.PROCESSING_GUARANTEE));
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.getInt(AppConfig.NUM_STREAM_THREADS));
        props.put(StreamsConfig.STATE_DIR_CONFIG, cluster.dir().resolve("state").resolve(appId).toString());
        props.put(SOURCES, String.join(",", sources));
        try (Admin admin = cluster.admin(); StreamsRun load = new StreamsRun(bareTopology(props), props).start()) {
            load.awaitRunning(Duration.ofMinutes(2));
            Offsets.awaitCommitted(admin, appId, Offsets.endOffsets(admin, sources), Duration.ofMinutes(60).toMillis());
        }
        return props;
    }

    /** Wipes the bare app's state and times its restore, from start() to RUNNING. */
    private double bareRestore(Properties props) throws Exception {
        deleteTree(Path.of(props.getProperty(StreamsConfig.STATE_DIR_CONFIG)));
        long start = System.nanoTime();
        try (StreamsRun restore = new StreamsRun(bareTopology(props), props).start()) {
            return (restore.awaitRunning(Duration.ofMinutes(20)) - start) / 1e9;
        }
    }

    private static org.apache.kafka.streams.Topology bareTopology(Properties props) {
        StreamsBuilder builder = new StreamsBuilder();
        String[] sources = props.getProperty(SOURCES).split(",");
        for (int i = 0; i < sources.length; i++) {
            builder.table(sources[i], Consumed.with(Serdes.Bytes(), Serdes.ByteArray()),
                Materialized.<Bytes, byte[], KeyValueStore<Bytes, byte[]>>as("bare-store-" + i));
        }
        return builder.build();
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
