package io.statesync.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.embedded.EmbeddedKafka;
import io.statesync.embedded.EmbeddedRegistry;

/**
 * One command per soak run, on its own child-process broker and registry under {@code --dir}:
 * {@code SoakMain --scenario fuzz|cas|crash|broker|registry|rebalance|rest-fuzz [--records N] [--requests N] [--seed N] [--iterations N] [--cycles N] [--dir D]}. Prints the report and exits
 * 0 when it passed, 1 when it did not.
 */
public final class SoakMain {

    private static final java.util.List<String> SCENARIOS = java.util.List.of("fuzz", "cas", "crash", "broker", "registry", "rest-fuzz", "rebalance");

    private SoakMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        String scenario = opts.getOrDefault("scenario", "fuzz");
        if (!SCENARIOS.contains(scenario)) {
            throw new IllegalArgumentException("--scenario must be one of " + SCENARIOS + ", not " + scenario);
        }
        Path dir = Path.of(opts.getOrDefault("dir", "target/soak-" + scenario + "-" + System.currentTimeMillis()));
        Files.createDirectories(dir);
        try (EmbeddedKafka kafka = EmbeddedKafka.childProcess(dir.resolve("kafka"), 0).start();
             EmbeddedRegistry registry = new EmbeddedRegistry(dir.resolve("registry"), 0).start()) {
            boolean passed = run(scenario, opts, kafka.bootstrapServers(), registry.url(), dir);
            System.out.println(scenario + (passed ? ": PASSED" : ": FAILED"));
            System.exit(passed ? 0 : 1);
        }
    }

    private static boolean run(String scenario, Map<String, String> opts, String bootstrap, String registryUrl, Path dir)
        throws Exception {
        Duration timeout = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("timeout-seconds", "300")));
        Map<String, Object> overrides = new HashMap<>(Map.of(AppConfig.SPEC_MAX_BYTES, 65_536));
        if (scenario.equals("crash")) {
            overrides.putAll(CrashScenario.FAST_FAILOVER);
            AppConfig config = InProcessApp.isolatedConfig(bootstrap, registryUrl, dir.resolve("state"), overrides);
            var report = new CrashScenario(new ScenarioTarget(config, () -> true), dir).run(intOpt(opts, "iterations", 20),
                Duration.ofSeconds(2), Duration.ofSeconds(8), 7L, timeout);
            System.out.println(report);
            return report.passed();
        }
        if (scenario.equals("rebalance")) {
            overrides.putAll(RebalanceScenario.SETTINGS);
            AppConfig config = InProcessApp.isolatedConfig(bootstrap, registryUrl, dir.resolve("state"), overrides);
            var report = new RebalanceScenario(new ScenarioTarget(config, () -> true), dir).run(intOpt(opts, "cycles", 10),
                Duration.ofSeconds(5), Duration.ofSeconds(3), timeout);
            System.out.println(report);
            return report.passed();
        }
        if (scenario.equals("rest-fuzz")) {
            return RestFuzzScenario.soak(opts, bootstrap, registryUrl, dir, timeout);
        }
        if (scenario.equals("registry")) {
            return registryDown(Long.parseLong(opts.getOrDefault("outage-seconds", "30")),
                Boolean.parseBoolean(opts.getOrDefault("from-start", "false")), bootstrap, dir, timeout);
        }
        if (scenario.equals("broker")) {
            return brokerRestarts(intOpt(opts, "iterations", 5), registryUrl, dir, timeout);
        }
        AppConfig config = InProcessApp.isolatedConfig(bootstrap, registryUrl, dir.resolve("state"), overrides);
        try (InProcessApp app = InProcessApp.start(config, timeout)) {
            if (scenario.equals("cas")) {
                var report = new CasScenario(app.target()).run(4, 100, intOpt(opts, "records", 10_000), timeout);
                System.out.println(report);
                return report.passed();
            }
            var report = new FuzzScenario(app.target()).run(intOpt(opts, "records", 10_000), 10, 42L, timeout);
            System.out.println(report);
            return report.passed();
        }
    }

    /** On a second, dedicated broker, so that the restarts never touch the one the registry-backed run started with. */
    private static boolean brokerRestarts(int restarts, String registryUrl, Path dir, Duration timeout) throws Exception {
        try (EmbeddedKafka broker = EmbeddedKafka.childProcess(dir.resolve("restarted-kafka"), 0).start()) {
            AppConfig config = InProcessApp.isolatedConfig(broker.bootstrapServers(), registryUrl, dir.resolve("state"), Map.of());
            try (InProcessApp app = InProcessApp.start(config, timeout)) {
                var report = new BrokerRestartScenario(app.target(), broker).run(restarts, Duration.ofSeconds(5),
                    Duration.ofSeconds(10), timeout);
                System.out.println(report);
                return report.passed();
            }
        }
    }

    /**
     * On a second registry of its own, stopped and started again; its H2 file keeps the schema ids. With
     * {@code --from-start true} it goes down before statesync has resolved any schema.
     */
    private static boolean registryDown(long outageSeconds, boolean fromStart, String bootstrap, Path dir, Duration timeout)
        throws Exception {
        try (EmbeddedRegistry registry = new EmbeddedRegistry(dir.resolve("stopped-registry"), 0).start()) {
            AppConfig config = InProcessApp.isolatedConfig(bootstrap, registry.url(), dir.resolve("state"), Map.of());
            try (InProcessApp app = InProcessApp.start(config, timeout)) {
                var scenario = new RegistryDownScenario(app.target(), registry);
                var report = fromStart ? scenario.runDownFromStart(Duration.ofSeconds(5), Duration.ofSeconds(outageSeconds), timeout)
                    : scenario.run(Duration.ofSeconds(5), Duration.ofSeconds(outageSeconds), timeout);
                System.out.println(report);
                return report.passed();
            }
        }
    }

    private static int intOpt(Map<String, String> opts, String name, int fallback) {
        return Integer.parseInt(opts.getOrDefault(name, String.valueOf(fallback)));
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        return opts;
    }
}
