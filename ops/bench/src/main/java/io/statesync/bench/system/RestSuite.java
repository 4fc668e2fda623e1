package io.statesync.bench.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.javalin.Javalin;
import io.statesync.app.StatesyncApp;
import io.statesync.avro.KindPolicy;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Suite 4: two {@link StatesyncApp} instances of one application (REST included, as in production) hold
 * {@code resources} resources. A plain-socket load generator issues single-key GETs to instance A for keys A owns
 * (local) and keys B owns (other), which A answers from its own resource view; the same with
 * {@code consistency=owner}, where A's view first catches up with the committed end of the resources topic; and to a
 * Javalin hello-world endpoint in the same process (the baseline): closed loop for the maximum rate, open loop at {@value #OPEN_RATE}/s for latency.
 * The same endpoint behind a shared committed-end query ({@link ConsistentReadFloor}) is the floor of consistent reads. Then
 * {@link WatchFanOut}: {@value WatchFanOut#CLIENTS} SSE clients and the delay from a write to each delivery.
 */
public final class RestSuite {

    static final int CONNECTIONS = 8;
    static final int OPEN_RATE = 5_000;
    /** Keys probed to find which instance owns them: enough for every partition, cheap to look up. */
    private static final int SAMPLE = 3_000;
    /** Longer than any run of the suite. */
    private static final long QUIET_MS = 3_600_000L;

    private final BenchCluster cluster;
    private final int resources;
    private final double seconds;

    public RestSuite(BenchCluster cluster, int resources, double seconds) {
        this.cluster = cluster;
        this.resources = resources;
        this.seconds = seconds;
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        AppConfig configA = cluster.newRun("rest", overrides);
        Map<String, Object> b = new HashMap<>(configA.originals());
        b.put(AppConfig.STATE_DIR, configA.getString(AppConfig.STATE_DIR) + "-b");
        AppConfig configB = new AppConfig(b);
        SchemaWarmup.statesync(new TopologySerdes(configA), new TopicNames(configA.topicPrefix()), configA.getString(AppConfig.APPLICATION_ID));
        writeQuietPolicy(configA);
        Workload.writeResources(configA, resources);
        ConsistentReadFloor floor = new ConsistentReadFloor(cluster.bootstrap(), new TopicNames(configA.topicPrefix()).resources());
        Javalin hello = Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.startup.startupWatcherEnabled = false;
            c.routes.get("/hello", ctx -> ctx.result("hello world"));
            c.routes.get("/hello-consistent", floor::handle);
        }).start("127.0.0.1", 0);
        try (floor; StatesyncApp a = new StatesyncApp(configA); StatesyncApp other = new StatesyncApp(configB)) {
            a.start();
            other.start();
            awaitLoaded(configA, a, other);
            KeySplit keys = KeySplit.of(a, Math.min(SAMPLE, resources));
            System.err.printf("  %d local and %d forwarded keys of %d sampled%n", keys.local().size(), keys.forwarded().size(), Math.min(SAMPLE, resources));
            return reads(runs, a.httpPort(), hello.port(), keys) + new WatchFanOut(configA, a.httpPort(), seconds).run(runs);
        } finally {
            hello.stop();
        }
    }

    /**
     * No agent answers this suite's corrections, so with the default policy every resource's correction times out
     * after 30 s and is retried with backoff: with many resources those timers keep every stream thread busy and the load
     * does not finish. Reads are measured here, not reconciliation, so the bench kind's deadline and resync period are
     * pushed beyond the suite's duration.
     */
    static void writeQuietPolicy(AppConfig config) throws Exception {
        TopicNames topics = new TopicNames(config.topicPrefix());
        KindPolicy policy = KindPolicy.newBuilder().setKind("WebApp").setCorrectionDeadlineMs(QUIET_MS)
            .setResyncPeriodMs(QUIET_MS).build();
        try (KafkaProducer<String, byte[]> producer = Workload.fastProducer(config)) {
            producer.send(new ProducerRecord<>(topics.kinds(), "WebApp",
                new TopologySerdes(config).kindPolicy().serializer().serialize(topics.kinds(), policy))).get();
        }
    }

    /** Both instances ready, and every loaded resource in the stores (the application's committed offsets). */
    private void awaitLoaded(AppConfig config, StatesyncApp... apps) throws Exception {
        for (StatesyncApp app : apps) {
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (!app.restServer().readinessProblems().isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not ready: " + app.restServer().readinessProblems());
                }
                Thread.sleep(100);
            }
        }
        try (Admin admin = cluster.admin()) {
            var ends = Offsets.endOffsets(admin, List.of(new TopicNames(config.topicPrefix()).desired()));
            Offsets.awaitCommitted(admin, config.getString(AppConfig.APPLICATION_ID), ends, Duration.ofMinutes(10).toMillis());
        }
    }

    private String reads(int runs, int port, int helloPort, KeySplit keys) throws Exception {
        Table qps = new Table(String.format("REST single-key GET, maximum rate: closed loop, %d connections, %,d resources, 2 instances",
            CONNECTIONS, resources), "run", "hello world (req/s)", "local (req/s)", "other (req/s)", "local / hello", "other / hello",
            "local, consistency=owner (req/s)", "other, consistency=owner (req/s)", "other consistent / local",
            "consistent floor (req/s)", "consistent floor / hello", "errors");
        Table latency = new Table(String.format("REST single-key GET latency at %,d req/s: open loop, %d connections (ms from intended send)",
            OPEN_RATE, CONNECTIONS), "run", "hello p50", "hello p99", "local p50", "local p99", "other p50", "other p99", "errors");
        List<double[]> q = new ArrayList<>();
        List<double[]> l = new ArrayList<>();
        List<String> hello = List.of("/hello");
        for (int r = 0; r <= runs; r++) {
            HttpLoad.Result h = HttpLoad.closed(helloPort, hello, CONNECTIONS, seconds);
            HttpLoad.Result loc = HttpLoad.closed(port, keys.local(), CONNECTIONS, seconds);
            HttpLoad.Result fwd = HttpLoad.closed(port, keys.forwarded(), CONNECTIONS, seconds);
            HttpLoad.Result ownLocal = HttpLoad.closed(port, keys.localThroughOwner(), CONNECTIONS, seconds);
            HttpLoad.Result owner = HttpLoad.closed(port, keys.forwardedThroughOwner(), CONNECTIONS, seconds);
            HttpLoad.Result floor = HttpLoad.closed(helloPort, List.of("/hello-consistent"), CONNECTIONS, seconds);
            double[] qr = {h.qps(), loc.qps(), fwd.qps(), loc.qps() / h.qps(), fwd.qps() / h.qps(), ownLocal.qps(), owner.qps(),
                owner.qps() / loc.qps(), floor.qps(), floor.qps() / h.qps()};
            String run = r == 0 ? "warm-up (discarded)" : String.valueOf(r);
            qps.row(run, qr[0], qr[1], qr[2], qr[3], qr[4], qr[5], qr[6], qr[7], qr[8], qr[9],
                h.errors() + loc.errors() + fwd.errors() + ownLocal.errors() + owner.errors() + floor.errors());
            HttpLoad.Result oh = HttpLoad.open(helloPort, hello, CONNECTIONS, OPEN_RATE, seconds);
            HttpLoad.Result ol = HttpLoad.open(port, keys.local(), CONNECTIONS, OPEN_RATE, seconds);
            HttpLoad.Result of = HttpLoad.open(port, keys.forwarded(), CONNECTIONS, OPEN_RATE, seconds);
            double[] lr = {oh.latencies().p50(), oh.latencies().p99(), ol.latencies().p50(), ol.latencies().p99(),
                of.latencies().p50(), of.latencies().p99()};
            latency.row(run, lr[0], lr[1], lr[2], lr[3], lr[4], lr[5], oh.errors() + ol.errors() + of.errors());
            System.err.printf("  run %d: hello %,.0f, local %,.0f, forwarded %,.0f req/s; p99 at %,d/s: %.2f / %.2f / %.2f ms%n",
                r, qr[0], qr[1], qr[2], OPEN_RATE, lr[1], lr[3], lr[5]);
            if (r > 0) {
                q.add(qr);
                l.add(lr);
            }
        }
        qps.row(medians(q, "**median**"));
        latency.row(medians(l, "**median**"));
        return qps.render() + latency.render();
    }

    /** A row of {@code leading} cells, then the per-column medians of {@code runs}. */
    static Object[] medians(List<double[]> runs, Object... leading) {
        int n = runs.get(0).length;
        Object[] row = new Object[leading.length + n];
        System.arraycopy(leading, 0, row, 0, leading.length);
        for (int i = 0; i < n; i++) {
            int col = i;
            row[leading.length + i] = Stats.median(runs.stream().map(v -> v[col]).toList());
        }
        return row;
    }
}
