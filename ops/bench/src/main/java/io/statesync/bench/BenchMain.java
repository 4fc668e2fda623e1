package io.statesync.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.statesync.bench.system.BenchCluster;
import io.statesync.bench.system.ConvergenceSuite;
import io.statesync.bench.system.UiLoadSuite;
import io.statesync.bench.system.LatencySuite;
import io.statesync.bench.system.MachineInfo;
import io.statesync.bench.system.MemorySuite;
import io.statesync.bench.system.RestSuite;
import io.statesync.bench.system.RestWritesSuite;
import io.statesync.bench.system.RestartSuite;
import io.statesync.bench.system.ThroughputSuite;
import org.slf4j.LoggerFactory;

/**
 * The system benchmark harness: one embedded broker and registry for the whole process, then the chosen suites,
 * each printing a Markdown table. {@code --quick} shrinks the inputs so that everything runs in a few minutes.
 *
 * <pre>
 * java -cp 'ops/bench/target/lib/*:ops/bench/target/statesync-bench-0.1.0-SNAPSHOT.jar' io.statesync.bench.BenchMain \
 *     [--suite all|throughput|latency|convergence|rest|restwrites|memory|restart|ui] [--quick] [--runs 3]
 *     [--records N] [--keys N] [--resources N] [--memory-resources N] [--rate N] [--seconds N] [--rest-resources N]
 *     [--ui-resources N] [--commit-interval-ms N] [--guarantee exactly_once_v2|at_least_once] [--set key=value]
 *     [--contender defaults|key=value,...|floor[,key=value...]]
 * </pre>
 */
public final class BenchMain {

    private BenchMain() {
    }

    record Options(List<String> suites, boolean quick, int runs, int records, int keys, int resources, int memoryResources,
                   int rate, int seconds, int restResources, int uiResources, Map<String, Object> overrides,
                   List<String> contenders) {
    }

    public static void main(String[] args) throws Exception {
        // The locale bin/statesync gives the server's JVM, so that the in-process contenders run as it does: Kafka
        // Streams formats a line per empty input partition per record, and only en-US formats without building the
        // locale's number symbols each time. The naive join runs under it as well.
        Locale.setDefault(Locale.US);
        quietLogs();
        Options o = parse(args);
        System.out.println(MachineInfo.describe(args));
        try (BenchCluster cluster = new BenchCluster().start()) {
            for (String suite : o.suites()) {
                System.out.println(runSuite(cluster, suite, o));
                System.out.println(MachineInfo.load());
            }
        }
        System.exit(0);
    }

    private static String runSuite(BenchCluster cluster, String suite, Options o) throws Exception {
        return switch (suite) {
            case "throughput" -> new ThroughputSuite(cluster, o.records(), o.keys()).run(o.runs(), o.overrides());
            case "latency" -> new LatencySuite(cluster, o.rate(), o.seconds(), o.quick() ? 2_000 : 20_000, !o.quick())
                .run(o.runs(), o.overrides());
            case "rest" -> new RestSuite(cluster, o.restResources(), o.quick() ? 2 : 10).run(o.runs(), o.overrides());
            case "restwrites" -> new RestWritesSuite(cluster, RestWritesSuite.Sizes.of(o.quick()), o.contenders())
                .run(o.runs(), o.overrides());
            case "convergence" -> new ConvergenceSuite(cluster, o.resources()).run(o.runs(), o.overrides());
            case "memory" -> new MemorySuite(cluster, o.memoryResources()).run(o.runs(), o.overrides());
            case "restart" -> new RestartSuite(cluster, o.memoryResources()).run(o.runs(), o.overrides());
            case "ui" -> new UiLoadSuite(cluster, o.uiResources()).run(o.runs(), o.overrides());
            default -> throw new IllegalArgumentException("unknown suite " + suite);
        };
    }

    static Options parse(String[] args) {
        List<String> suites = new ArrayList<>(List.of("throughput", "latency", "convergence", "rest", "restwrites", "memory", "restart"));
        boolean quick = List.of(args).contains("--quick");
        // --quick must finish in minutes on 2 cores: one measured run after the warm-up, a fifth of the data.
        int runs = quick ? 1 : 3;
        int records = quick ? 20_000 : 1_000_000;
        int keys = quick ? 2_000 : 100_000;
        int resources = quick ? 2_000 : 100_000;
        int memoryResources = quick ? 20_000 : 1_000_000;
        int rate = quick ? 1_000 : 20_000;
        int seconds = quick ? 4 : 60;
        int restResources = quick ? 10_000 : 100_000;
        int uiResources = 10_000;
        Map<String, Object> overrides = new HashMap<>();
        List<String> contenders = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> { }
                case "--suite" -> suites = args[++i].equals("all") ? suites : List.of(args[i].split(","));
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--records" -> records = Integer.parseInt(args[++i]);
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--resources" -> resources = Integer.parseInt(args[++i]);
                case "--memory-resources" -> memoryResources = Integer.parseInt(args[++i]);
                case "--rate" -> rate = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--rest-resources" -> restResources = Integer.parseInt(args[++i]);
                case "--ui-resources" -> uiResources = Integer.parseInt(args[++i]);
                case "--commit-interval-ms" -> overrides.put("commit.interval.ms", Long.parseLong(args[++i]));
                case "--guarantee" -> overrides.put("processing.guarantee", args[++i]);
                case "--set" -> {
                    // Any statesync key for an A/B comparison, e.g. --set streams.restore.consumer.max.poll.records=1000
                    String[] kv = args[++i].split("=", 2);
                    overrides.put(kv[0], kv[1]);
                }
                // restwrites: one contender per option (key=value,..., "defaults", or "floor[,key=value...]" for the
                // write floor under those overrides), measured interleaved in each run.
                case "--contender" -> contenders.add(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        return new Options(suites, quick, runs, records, keys, resources, memoryResources, rate, seconds, restResources,
            uiResources, overrides, contenders);
    }

    /**
     * The broker and Streams log per partition and transaction, which would drown the tables; the topology's
     * logback.xml sets levels on named loggers too, so every configured level is lowered, not just the root's.
     */
    private static void quietLogs() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.getLoggerList().stream().filter(l -> l.getLevel() != null).forEach(l -> l.setLevel(Level.ERROR));
        // The in-process broker logs every retried transactional append (OutOfOrderSequenceException, "expected
        // sequence 0 for transactions v2") at ERROR; the producers retry and succeed, and the lines bury the tables.
        context.getLogger("kafka.server.ReplicaManager").setLevel(Level.OFF);
        // -Dstatesync.bench.info=io.statesync.app,org.apache.kafka.streams.KafkaStreams: the loggers a timeline needs.
        for (String name : System.getProperty("statesync.bench.info", "").split(",")) {
            if (!name.isBlank()) {
                context.getLogger(name.trim()).setLevel(Level.INFO);
            }
        }
    }
}
