package io.statesync.bench.system;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.javalin.Javalin;
import io.statesync.app.StatesyncApp;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.cli.StatesyncCli;
import io.statesync.config.AppConfig;
import io.statesync.registry.SchemaRegistryClients;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine;

/**
 * Suite 7: REST writes into one {@link StatesyncApp} (exactly-once, REST included, as {@code statesync run} runs it),
 * each write awaited through admission as a client awaits it. Per run, and per contender (a set of config overrides,
 * by default statesync's defaults and commits on request turned off), on a fresh application:
 * <ol>
 * <li>sequential PUTs from one keep-alive connection (closed loop), over {@value #SEQUENTIAL_KEYS} keys whose
 *     spec changes with every write;</li>
 * <li>PUTs from {@value #CONNECTIONS} keep-alive connections, closed loop, each on its own keys;</li>
 * <li>bulk writes at {@value #BULK_RATE} writes/s, open loop, for the CPU each write costs;</li>
 * <li>{@code statesync apply -f} of generated YAML files, the CLI run in process.</li>
 * </ol>
 * The HTTP baseline is a Javalin endpoint in this process that answers the same PUTs with a small JSON, without Kafka.
 */
public final class RestWritesSuite {

    static final String DEFAULTS = "defaults";
    static final String COMMITS_OFF = AppConfig.ADMISSION_COMMIT_INTERVAL_MS + "=0";
    static final String HELLO = "hello (no Kafka)";
    /** The contender that runs {@link WriteFloor} instead of statesync: PUT phases only. */
    static final String FLOOR = "floor";
    static final int SEQUENTIAL_KEYS = 100;
    static final int CONNECTIONS = 64;
    static final int KEYS_PER_CONNECTION = 50;
    static final int BULK_RATE = 5_000;
    static final int BULK_DOCS = 50;
    static final int BULK_CONNECTIONS = 16;
    static final int BULK_RAMP_S = 1;
    /** PUTs each new application gets before it is measured, so that its first writes' one-off costs stay out. */
    private static final int WARM_PUTS = 200;
    /** Longer than any run of the suite. */
    private static final long QUIET_MS = 3_600_000L;

    /** How much each run sends: sequential PUTs, seconds of each rate phase, and the documents of each apply file. */
    public record Sizes(int sequentialPuts, double seconds, List<Integer> applyDocs) {
        public static Sizes of(boolean quick) {
            return quick ? new Sizes(500, 3, List.of(1_000, 3_000)) : new Sizes(3_000, 10, List.of(1_000, 10_000));
        }
    }

    private final BenchCluster cluster;
    private final Sizes sizes;
    private final List<String> contenders;
    private final RunSheet sequential;
    private final RunSheet applies;
    private final RunSheet bulkApplies;
    private final RunSheet concurrent;
    private final RunSheet bulk;
    private final RunSheet apply;
    private final Map<Integer, Path> applyFiles = new LinkedHashMap<>();

    /** {@code contenders}: each a comma-separated list of key=value overrides, or {@value #DEFAULTS}. */
    public RestWritesSuite(BenchCluster cluster, Sizes sizes, List<String> contenders) {
        this.cluster = cluster;
        this.sizes = sizes;
        this.contenders = contenders.isEmpty() ? List.of(DEFAULTS, COMMITS_OFF) : contenders;
        this.sequential = new RunSheet(String.format("Sequential PUT, one keep-alive connection, closed loop: %,d writes over %d keys (ms)",
            sizes.sequentialPuts(), SEQUENTIAL_KEYS), "p50", "p99", "p99.9", "max", "writes/s", "JVM CPU µs/write", "errors");
        this.applies = new RunSheet(String.format("Sequential server-side apply (PATCH application/apply-patch+yaml), one"
            + " keep-alive connection, closed loop: %,d applies over %d keys, the same specs as the sequential PUTs (ms)",
            sizes.sequentialPuts(), SEQUENTIAL_KEYS), "p50", "p99", "p99.9", "max", "applies/s", "JVM CPU µs/apply",
            "CPU per apply / per PUT", "errors");
        this.bulkApplies = new RunSheet(String.format("Bulk server-side applies at %,d applies/s (items of op apply, the"
            + " bulk PUTs' documents and connections), after %d s at the rate", BULK_RATE, BULK_RAMP_S), "achieved applies/s",
            "JVM CPU µs/apply", "app threads µs/apply", "CPU per apply / per bulk PUT", "errors");
        this.concurrent = new RunSheet(String.format("PUT, %d keep-alive connections, closed loop, %.0f s", CONNECTIONS, sizes.seconds()),
            "writes/s", "p50 (ms)", "p99 (ms)", "JVM CPU µs/write", "app threads µs/write", "commits per 1,000 writes", "errors");
        this.bulk = new RunSheet(String.format("Bulk writes at %,d writes/s, open loop: %d documents a request, %d connections, %d s, then %.0f s",
            BULK_RATE, BULK_DOCS, BULK_CONNECTIONS, BULK_RAMP_S, sizes.seconds()), "achieved writes/s", "request p50 (ms)", "request p99 (ms)",
            "JVM CPU µs/write", "app threads µs/write", "JVM cores busy", "commits per 1,000 writes", "errors",
            "first s: JVM CPU µs/write", "first s: commits per 1,000 writes");
        this.apply = new RunSheet("statesync apply -f, in process, new resources (s wall)", applyHeader(sizes.applyDocs()));
    }

    private static String[] applyHeader(List<Integer> docs) {
        List<String> h = new ArrayList<>();
        docs.forEach(n -> h.add(String.format("%,d docs (s)", n)));
        docs.forEach(n -> h.add(String.format("%,d docs (docs/s)", n)));
        return h.toArray(String[]::new);
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        writeApplyFiles();
        Javalin hello = HelloPut.start();
        try {
            for (int r = 0; r <= runs; r++) {
                measurePuts(r, HELLO, hello.port(), "");
                for (String contender : contenders) {
                    measure(r, contender, overrides);
                }
            }
        } finally {
            hello.stop();
        }
        String measured = contenders.stream().filter(c -> !c.startsWith(FLOOR)).findFirst().orElse(null);
        return sequential.render() + applies.render() + concurrent.render() + bulk.render() + bulkApplies.render() + apply.render()
            + (measured == null ? "" : RestWriteTargets.render(measured, sequential, bulkApplies, concurrent, bulk, apply, sizes.applyDocs()));
    }

    private void writeApplyFiles() throws Exception {
        for (int n : sizes.applyDocs()) {
            Path file = cluster.dir().resolve("restwrites-" + n + ".yaml");
            try (Writer w = Files.newBufferedWriter(file)) {
                WriteDocs.yaml(w, "a" + n + "-", n);
            }
            applyFiles.put(n, file);
        }
    }

    /** The sequential and the 64-connection PUTs; {@code appId} empty when no application's threads are measured. */
    private void measurePuts(int run, String contender, int port, String appId) throws Exception {
        closedCount(port, 1_000_000, WARM_PUTS);
        CpuSpan cpu = CpuSpan.start(appId);
        HttpLoad.Result s = closedCount(port, 0, sizes.sequentialPuts());
        sequential.add(contender, run, s.latencies().p50(), s.latencies().p99(), s.latencies().p999(), s.latencies().max(),
            s.qps(), cpu.jvmMicrosPer(s.latencies().count()), s.errors());
        cpu = CpuSpan.start(appId);
        long commits = StreamCommits.total(appId);
        HttpLoad.Result c = HttpLoad.closed(port, puts(), CONNECTIONS, sizes.seconds());
        long n = c.latencies().count();
        concurrent.add(contender, run, c.qps(), c.latencies().p50(), c.latencies().p99(), cpu.jvmMicrosPer(n),
            cpu.appMicrosPer(n), perThousand(StreamCommits.total(appId) - commits, n), c.errors());
        System.err.printf("  run %d %s: sequential p50 %.1f ms, %,.0f PUT/s at %d connections%n", run, contender,
            s.latencies().p50(), c.qps(), CONNECTIONS);
    }

    /**
     * Sequential applies of the sequential PUTs' specs on keys of their own, against the PUTs of the same run: the CPU
     * an apply adds for its managed fields and merge. Its first round creates the keys, as the PUTs' warm-up did.
     */
    private void measureApplies(int run, String contender, int port, String appId) throws Exception {
        closedApplies(port, 1_000_000, WARM_PUTS);
        CpuSpan cpu = CpuSpan.start(appId);
        HttpLoad.Result a = closedApplies(port, 0, sizes.sequentialPuts());
        double perApply = cpu.jvmMicrosPer(a.latencies().count());
        double[] puts = sequential.latest(contender);
        applies.add(contender, run, a.latencies().p50(), a.latencies().p99(), a.latencies().p999(), a.latencies().max(),
            a.qps(), perApply, puts == null ? Double.NaN : perApply / puts[5], a.errors());
        System.err.printf("  run %d %s: sequential apply p50 %.1f ms, %.0f µs CPU per apply%n", run, contender,
            a.latencies().p50(), perApply);
    }

    private static HttpLoad.Result closedApplies(int port, long firstSeq, int count) throws Exception {
        return HttpLoad.closedCount(port, (conn, index) -> {
            byte[][] r = new byte[count][];
            for (int i = 0; i < count; i++) {
                r[i] = conn.request("PATCH", WriteDocs.path("a-" + i % SEQUENTIAL_KEYS) + "?fieldManager=bench",
                    WriteDocs.putBody(firstSeq + i), "application/apply-patch+yaml");
            }
            return r;
        }, 1, count);
    }

    private void measure(int run, String contender, Map<String, Object> overrides) throws Exception {
        boolean floor = contender.startsWith(FLOOR);
        Map<String, Object> o = new HashMap<>(overrides);
        o.putAll(parse(floor ? contender.substring(FLOOR.length()).replaceFirst("^,", "") : contender));
        AppConfig config = cluster.newRun("restwrites", o);
        prepare(config);
        String appId = config.getString(AppConfig.APPLICATION_ID);
        if (floor) {
            try (WriteFloor f = WriteFloor.start(config)) {
                measurePuts(run, contender, f.port(), appId);
            }
            return;
        }
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            awaitReady(app);
            int port = app.httpPort();
            measurePuts(run, contender, port, appId);
            measureApplies(run, contender, port, appId);
            measureBulk(run, contender, port, appId);
            measureBulkApplies(run, contender, port, appId);
            measureApply(run, contender, port);
        }
    }

    /**
     * The first {@value #BULK_RAMP_S} s at the bulk rate are measured apart from the rest: they show the change from
     * the rate before (the 64 connections') to this one, and the rest shows the CPU of a write at this rate.
     */
    private void measureBulk(int run, String contender, int port, String appId) throws Exception {
        double requestRate = (double) BULK_RATE / BULK_DOCS;
        CpuSpan cpu = CpuSpan.start(appId);
        long commits = StreamCommits.total(appId);
        HttpLoad.Result ramp = HttpLoad.open(port, bulks(requestRate), BULK_CONNECTIONS, requestRate, BULK_RAMP_S);
        long rampWrites = ramp.latencies().count() * BULK_DOCS;
        double rampCpu = cpu.jvmMicrosPer(rampWrites);
        double rampCommits = perThousand(StreamCommits.total(appId) - commits, rampWrites);
        cpu = CpuSpan.start(appId);
        commits = StreamCommits.total(appId);
        HttpLoad.Result b = HttpLoad.open(port, bulks(requestRate), BULK_CONNECTIONS, requestRate, sizes.seconds());
        long writes = b.latencies().count() * BULK_DOCS;
        bulk.add(contender, run, b.qps() * BULK_DOCS, b.latencies().p50(), b.latencies().p99(), cpu.jvmMicrosPer(writes),
            cpu.appMicrosPer(writes), cpu.coresBusy(), perThousand(StreamCommits.total(appId) - commits, writes),
            b.errors() + ramp.errors(), rampCpu, rampCommits);
    }

    /** The bulk rate again with apply items, against the bulk PUTs of the same run: the CPU an apply costs under load. */
    private void measureBulkApplies(int run, String contender, int port, String appId) throws Exception {
        double requestRate = (double) BULK_RATE / BULK_DOCS;
        HttpLoad.Result ramp = HttpLoad.open(port, bulks(requestRate, "apply"), BULK_CONNECTIONS, requestRate, BULK_RAMP_S);
        CpuSpan cpu = CpuSpan.start(appId);
        HttpLoad.Result b = HttpLoad.open(port, bulks(requestRate, "apply"), BULK_CONNECTIONS, requestRate, sizes.seconds());
        long writes = b.latencies().count() * BULK_DOCS;
        double perApply = cpu.jvmMicrosPer(writes);
        double[] puts = bulk.latest(contender);
        bulkApplies.add(contender, run, b.qps() * BULK_DOCS, perApply, cpu.appMicrosPer(writes),
            puts == null ? Double.NaN : perApply / puts[3], b.errors() + ramp.errors());
        System.err.printf("  run %d %s: bulk applies %.0f µs CPU each, %.2fx a bulk PUT%n", run, contender, perApply,
            puts == null ? Double.NaN : perApply / puts[3]);
    }

    private static double perThousand(long commits, long writes) {
        return commits * 1_000.0 / Math.max(1, writes);
    }

    private void measureApply(int run, String contender, int port) {
        List<Integer> docs = sizes.applyDocs();
        double[] figures = new double[docs.size() * 2];
        for (int i = 0; i < docs.size(); i++) {
            double seconds = applyOnce(applyFiles.get(docs.get(i)), port);
            figures[i] = seconds;
            figures[docs.size() + i] = docs.get(i) / seconds;
        }
        apply.add(contender, run, figures);
    }

    /** The wall time of one {@code statesync apply -f}, as a user runs it; NaN when it does not exit 0. */
    private static double applyOnce(Path file, int port) {
        CommandLine cli = StatesyncCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(Writer.nullWriter()));
        cli.setErr(new PrintWriter(err));
        long start = System.nanoTime();
        int exit = cli.execute("apply", "-f", file.toString(), "--server", "http://127.0.0.1:" + port);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (exit != 0) {
            System.err.println("  apply -f " + file + " exited " + exit + ": " + err.toString().lines().limit(5).toList());
            return Double.NaN;
        }
        return seconds;
    }

    /** Sequential PUTs over {@value #SEQUENTIAL_KEYS} keys, spec {@code firstSeq + i}. */
    private static HttpLoad.Result closedCount(int port, long firstSeq, int count) throws Exception {
        return HttpLoad.closedCount(port, (conn, index) -> {
            byte[][] r = new byte[count][];
            for (int i = 0; i < count; i++) {
                r[i] = conn.request("PUT", WriteDocs.path("s-" + i % SEQUENTIAL_KEYS), WriteDocs.putBody(firstSeq + i));
            }
            return r;
        }, 1, count);
    }

    /** Each connection PUTs its own keys, cycling, with a new spec each time round. */
    private static HttpLoad.Requests puts() {
        return (conn, index) -> {
            byte[][] r = new byte[KEYS_PER_CONNECTION * 40][];
            for (int i = 0; i < r.length; i++) {
                r[i] = conn.request("PUT", WriteDocs.path("c" + index + "-" + i % KEYS_PER_CONNECTION), WriteDocs.putBody(i));
            }
            return r;
        };
    }

    /** Each connection's bulk requests: its own keys, ten requests' worth, each request a new spec. */
    private HttpLoad.Requests bulks(double requestRate) {
        return bulks(requestRate, "put");
    }

    private HttpLoad.Requests bulks(double requestRate, String op) {
        int perConnection = (int) Math.ceil(requestRate / BULK_CONNECTIONS * sizes.seconds()) + 1;
        return (conn, index) -> {
            byte[][] r = new byte[perConnection][];
            for (int j = 0; j < perConnection; j++) {
                List<String> names = new ArrayList<>(BULK_DOCS);
                for (int d = 0; d < BULK_DOCS; d++) {
                    names.add((op.equals("apply") ? "ba" : "b") + index + "-" + (j * BULK_DOCS + d) % (BULK_DOCS * 10));
                }
                r[j] = conn.request("POST", "/api/v1/bulk" + (op.equals("apply") ? "?fieldManager=bench" : ""),
                    WriteDocs.bulkBody(names, j, op));
            }
            return r;
        };
    }

    /** {@value #DEFAULTS} (or empty), or {@code key=value[,key=value...]}. */
    static Map<String, Object> parse(String contender) {
        Map<String, Object> o = new HashMap<>();
        if (!contender.equals(DEFAULTS) && !contender.isEmpty()) {
            for (String kv : contender.split(",")) {
                String[] p = kv.split("=", 2);
                if (p.length != 2) {
                    throw new IllegalArgumentException("a contender is key=value[,key=value...] or " + DEFAULTS + ": " + contender);
                }
                o.put(p[0].trim(), p[1].trim());
            }
        }
        return o;
    }

    /**
     * Schemas registered before the clock starts, and a kind policy that keeps the unanswered corrections of the
     * suite's writes (no agent runs) from timing out and retrying while later phases are measured.
     */
    private static void prepare(AppConfig config) throws Exception {
        TopologySerdes serdes = new TopologySerdes(config);
        TopicNames topics = new TopicNames(config.topicPrefix());
        SchemaWarmup.statesync(serdes, topics, config.getString(AppConfig.APPLICATION_ID));
        SchemaRegistryClients.forConfig(serdes.config()).register(topics.desired() + "-value", DesiredState.getClassSchema());
        KindPolicy policy = KindPolicy.newBuilder().setKind(WriteDocs.KIND).setCorrectionDeadlineMs(QUIET_MS)
            .setResyncPeriodMs(QUIET_MS).build();
        try (KafkaProducer<String, byte[]> producer = Workload.fastProducer(config)) {
            producer.send(new ProducerRecord<>(topics.kinds(), WriteDocs.KIND,
                serdes.kindPolicy().serializer().serialize(topics.kinds(), policy))).get();
        }
    }

    private static void awaitReady(StatesyncApp app) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!app.restServer().readinessProblems().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not ready: " + app.restServer().readinessProblems());
            }
            Thread.sleep(50);
        }
    }
}
