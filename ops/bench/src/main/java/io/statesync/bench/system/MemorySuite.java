package io.statesync.bench.system;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * Suite 6: what statesync adds to the process after loading {@code resources} resources. The broker runs in this
 * JVM, so the figures are deltas: heap used after a full GC, and RSS, with statesync loaded and still running,
 * minus the same just before it started. RocksDB's native memory shows in RSS only. Run it with
 * {@code -Xms4g -Xmx4g -XX:+AlwaysPreTouch}: with the whole heap committed and touched up front, the RSS delta is
 * native memory only, not the heap growing or shrinking.
 */
public final class MemorySuite {

    static final String STANDALONE_JVM = "-Xms512m -Xmx512m";

    private final BenchCluster cluster;
    private final int resources;

    public MemorySuite(BenchCluster cluster, int resources) {
        this.cluster = cluster;
        this.resources = resources;
    }

    /**
     * {@code -Dstatesync.bench.memory=standalone|in-process|both} (default both) chooses the tables;
     * {@code -Dstatesync.bench.standalone.jvm} the standalone JVM's options (default {@value #STANDALONE_JVM}).
     */
    public String run(int runs, Map<String, Object> overrides) throws Exception {
        String mode = System.getProperty("statesync.bench.memory", "both");
        String out = mode.equals("standalone") ? "" : inProcess(runs, overrides);
        return mode.equals("in-process") ? out : out + "\n" + standalone(runs, overrides);
    }

    private String inProcess(int runs, Map<String, Object> overrides) throws Exception {
        Table table = new Table(String.format("Memory: statesync's share after loading %,d resources (deltas against the process before it started)", resources),
            "run", "heap used after GC (MB)", "RSS, native (MB)", "statesync total (MB)", "process RSS (MB)", "heap committed (MB)");
        List<Double> heap = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        for (int r = 0; r <= runs; r++) {
            double[] s = oneRun(cluster.newRun("memory", overrides));
            System.err.printf("  run %d: heap %.0f MB, native %.0f MB, process RSS %.0f MB%n", r, s[0], s[1], s[2]);
            table.row(r == 0 ? "warm-up (discarded)" : String.valueOf(r), s[0], s[1], s[0] + s[1], s[2], s[3]);
            if (r > 0) {
                heap.add(s[0]);
                rss.add(s[1]);
            }
        }
        table.row("**median**", Stats.median(heap), Stats.median(rss), Stats.median(heap) + Stats.median(rss), "", "");
        return table.render();
    }

    private double[] oneRun(AppConfig config) throws Exception {
        TopicNames topics = new TopicNames(config.topicPrefix());
        Workload.writeResources(config, resources);
        SchemaWarmup.statesync(new TopologySerdes(config), topics, config.getString(AppConfig.APPLICATION_ID));
        double heapBefore = heapAfterGc();
        double rssBefore = rssMb();
        try (Admin admin = cluster.admin();
             StreamsRun app = StreamsRun.statesync(config).start()) {
            Map<TopicPartition, Long> ends = Offsets.endOffsets(admin, List.of(topics.desired()));
            app.awaitRunning(Duration.ofMinutes(2));
            Offsets.awaitCommitted(admin, config.getString(AppConfig.APPLICATION_ID), ends, Duration.ofMinutes(20).toMillis());
            double heap = heapAfterGc() - heapBefore;
            double rss = rssMb();
            double committed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() / 1048576.0;
            return new double[] {heap, rss - rssBefore, rss, committed};
        }
    }

    /**
     * One load of N resources into a standalone instance, measured once it is ready; then, as further runs, the same
     * instance restarted on its kept state (stores reopened, the REST view read again), because reloading 1M
     * resources per run takes longer than the whole suite may. No warm-up: every run is a fresh JVM. The restarts are
     * also timed to {@code /readyz} 200: suite 5's kept restart, but in a new JVM, as an operator restarts an instance.
     */
    private String standalone(int runs, Map<String, Object> overrides) throws Exception {
        List<String> jvm = List.of(System.getProperty("statesync.bench.standalone.jvm", STANDALONE_JVM).trim().split("\\s+"));
        Path launcher = StandaloneInstance.distLauncher();
        System.err.println(launcher == null ? "  standalone instances: java -cp <this benchmark's class path>"
            : "  standalone instances: " + launcher + " run, STATESYNC_CDS=" + System.getProperty("statesync.bench.standalone.cds", "auto"));
        Table table = new Table(String.format("Memory: a standalone `statesync run` JVM (%s) with %,d resources, at /readyz 200",
            String.join(" ", jvm), resources), "run", "heap used after full GC (MB)", "RSS (MB)", "peak RSS, VmHWM (MB)",
            "JVM start -> /readyz 200 (s)", "of the RSS file-backed (MB)", "RSS after listing every resource (MB)",
            "of it file-backed (MB)");
        // Timers off, as for the restart suite's load: memory is measured, not how fast 1M deadlines expire.
        AppConfig config = RestartSuite.withoutTimers(cluster.newRun("memory-standalone", overrides));
        TopicNames topics = new TopicNames(config.topicPrefix());
        Workload.writeResources(config, resources);
        SchemaWarmup.statesync(new TopologySerdes(config), topics, config.getString(AppConfig.APPLICATION_ID));
        List<double[]> samples = new ArrayList<>();
        for (int r = 1; r <= runs; r++) {
            double[] s = standaloneRun(config, jvm, r);
            System.err.printf("  standalone run %d: heap %.0f MB, RSS %.0f MB, peak RSS %.0f MB, ready after %.2f s%n", r, s[0], s[1],
                s[2], s[3]);
            table.row(r == 1 ? "1 (after the load; the time includes it)" : r + " (restart, state kept)", s[0], s[1], s[2], s[3],
                s[4], s[5], s[6]);
            samples.add(s);
        }
        quickRestarts(config, jvm);
        List<double[]> restarts = samples.subList(1, samples.size());
        table.row("**median**", Stats.median(samples.stream().map(s -> s[0]).toList()),
            Stats.median(samples.stream().map(s -> s[1]).toList()), Stats.median(samples.stream().map(s -> s[2]).toList()),
            restarts.isEmpty() ? "" : String.format("%.2f (restarts)", Stats.median(restarts.stream().map(s -> s[3]).toList())),
            Stats.median(samples.stream().map(s -> s[4]).toList()), Stats.median(samples.stream().map(s -> s[5]).toList()),
            Stats.median(samples.stream().map(s -> s[6]).toList()));
        return table.render();
    }

    /**
     * {@code -Dstatesync.bench.standalone.restarts=N}: after the runs, N more kept restarts per build, timed to
     * {@code /readyz} 200 only (no GC, no list), taking turns among the builds in
     * {@code -Dstatesync.bench.standalone.launchers} (their {@code bin/statesync}, comma separated; default the one
     * found), to compare builds on one loaded state. Each build first runs once unreported, to write its class-data
     * archive. {@code -Dstatesync.bench.standalone.dumps=true} sends each instance SIGQUIT every 500 ms until ready, so
     * that its log holds thread dumps of the restart.
     */
    private void quickRestarts(AppConfig config, List<String> jvm) throws Exception {
        int n = Integer.getInteger("statesync.bench.standalone.restarts", 0);
        String given = System.getProperty("statesync.bench.standalone.launchers", "");
        List<Path> builds = given.isEmpty() ? java.util.Collections.singletonList(StandaloneInstance.distLauncher())
            : java.util.Arrays.stream(given.split(",")).map(Path::of).toList();
        for (int r = 0; r <= n && n > 0; r++) {
            for (int b = 0; b < builds.size(); b++) {
                double ready = timedRestart(builds.get(b), config, jvm, "q" + r + "-b" + b);
                System.err.printf("  restart %d of build %d (%s): ready after %.2f s%s%n", r, b, builds.get(b), ready,
                    r == 0 ? " (writes its class-data archive: not counted)" : "");
            }
        }
    }

    private double timedRestart(Path launcher, AppConfig config, List<String> jvm, String name) throws Exception {
        Path log = cluster.dir().resolve(config.getString(AppConfig.APPLICATION_ID) + "-" + name + ".log");
        var dumps = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        long start = System.nanoTime();
        try (StandaloneInstance app = StandaloneInstance.start(launcher, config, jvm, log, cluster.dir().resolve("cds"))) {
            if (Boolean.getBoolean("statesync.bench.standalone.dumps")) {
                dumps.scheduleAtFixedRate(() -> {
                    try {
                        app.threadDump();
                    } catch (Exception e) {
                        System.err.println("    thread dump failed: " + e);
                    }
                }, 500, 500, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
            app.awaitReady(Duration.ofMinutes(10));
            double ready = (System.nanoTime() - start) / 1e9;
            dumps.shutdownNow();
            System.err.printf("    %.2f CPU s used: %s%n", app.cpuSeconds(), app.cpuByThread(10));
            Thread.sleep(2000); // a restart stops a settled instance, not one in the middle of its first commits
            return ready;
        } finally {
            dumps.shutdownNow();
            keepLog(log);
        }
    }

    private double[] standaloneRun(AppConfig config, List<String> jvm, int run) throws Exception {
        TopicNames topics = new TopicNames(config.topicPrefix());
        Path log = cluster.dir().resolve(config.getString(AppConfig.APPLICATION_ID) + "-" + run + ".log");
        long start = System.nanoTime();
        try (Admin admin = cluster.admin(); StandaloneInstance app = StandaloneInstance.start(config, jvm, log, cluster.dir().resolve("cds"))) {
            Map<TopicPartition, Long> ends = Offsets.endOffsets(admin, List.of(topics.desired()));
            Offsets.awaitCommitted(admin, config.getString(AppConfig.APPLICATION_ID), ends, Duration.ofMinutes(60).toMillis());
            // Ready also means the REST resource view has read every Resource, which lives on the heap.
            app.awaitReady(Duration.ofMinutes(10));
            double ready = (System.nanoTime() - start) / 1e9;
            System.err.printf("    ready after %.2f s, with %.2f CPU s used: %s%n", ready, app.cpuSeconds(), app.cpuByThread(14));
            // The instance's own account of its start, which its log (deleted with the run) holds.
            try (var lines = Files.lines(log)) {
                lines.filter(l -> l.contains("Resource view loaded") || l.contains("statesync started in") || l.contains("Start-up step")
                    || l.contains("to RUNNING") && l.contains("KafkaStreams")).forEach(l -> System.err.println("    " + l));
            }
            double heap = app.heapAfterGcMb();
            double rss = app.statusMb("VmRSS");
            double rssFile = app.statusMb("RssFile");
            double peak = app.statusMb("VmHWM");
            // Printed before the list, so that a list that fails does not lose the load's figures.
            System.err.printf("    at /readyz 200: heap after full GC %.0f MB, RSS %.0f MB, peak RSS %.0f MB%n", heap, rss, peak);
            // The values a restart maps from the view snapshot are resident only once read; reading them all is the
            // most the same view can take, file-backed pages the kernel may drop and read again.
            long listed = -1;
            try {
                // -Dstatesync.bench.standalone.list=false skips the list, for runs that only time restarts.
                if (!"false".equals(System.getProperty("statesync.bench.standalone.list"))) {
                    listed = app.listAll();
                }
            } finally {
                keepLog(log);
            }
            double[] figures = {heap, rss, peak, ready, rssFile, app.statusMb("VmRSS"), app.statusMb("RssFile")};
            System.err.printf("  listed %,d resources through REST%n", listed);
            System.err.println(app.heapHistogram(25));
            return figures;
        }
    }

    /** With {@code -Dstatesync.bench.standalone.logs=<dir>}, the instance's whole log outlives the run, for a closer look at its start. */
    private static void keepLog(Path log) throws IOException {
        String dir = System.getProperty("statesync.bench.standalone.logs", "");
        if (!dir.isEmpty()) {
            Files.createDirectories(Path.of(dir));
            Files.copy(log, Path.of(dir).resolve(log.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static double heapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
    }

    /** VmRSS of this process from /proc (Linux). */
    static double rssMb() throws java.io.IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmRSS:"))
            .map(l -> Double.parseDouble(l.replaceAll("[^0-9]", "")) / 1024).findFirst().orElse(-1.0);
    }
}
