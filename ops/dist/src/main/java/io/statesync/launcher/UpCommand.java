package io.statesync.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.embedded.EmbeddedRuntime;
import io.statesync.server.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code statesync up}: a single-node KRaft broker, the Apicurio registry, the pipeline with REST and the
 * demo agent, all on 127.0.0.1 with their data under one directory, so a restart keeps everything.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
    description = "Start the embedded default: broker, registry, pipeline, REST and the demo agent.")
public final class UpCommand implements Callable<Integer> {

    @Option(names = "--data-dir", defaultValue = "data", description = "Where all state lives (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--kafka-port", defaultValue = "9092", description = "Broker port (default: ${DEFAULT-VALUE}).")
    int kafkaPort;

    @Option(names = "--registry-port", defaultValue = "8081", description = "Registry port (default: ${DEFAULT-VALUE}).")
    int registryPort;

    @Option(names = "--http-port", defaultValue = "8080", description = "REST port (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--no-agent", description = "Do not start the demo agent.")
    boolean noAgent;

    @Option(names = {"-D", "--set"}, description = "Override one config key, e.g. -D topic.partitions=3.")
    Map<String, String> overrides = new HashMap<>();

    @Override
    public Integer call() throws Exception {
        EmbeddedRuntime runtime = new EmbeddedRuntime(dataDir, kafkaPort, registryPort);
        StatesyncApp[] app = new StatesyncApp[1];
        AutoCloseable[] agent = new AutoCloseable[1];
        OrderlyShutdown stop = OrderlyShutdown.install(() -> shutdown(agent[0], app[0], runtime));
        System.out.println("Starting the embedded broker and registry under " + dataDir.toAbsolutePath() + " ...");
        runtime.start();
        AppConfig config = AppConfig.load(null, System.getenv(), appOverrides(runtime));
        app[0] = new StatesyncApp(config);
        app[0].start();
        if (!noAgent) {
            agent[0] = DemoAgent.start(config, overrides);
        }
        printBanner(app[0].httpPort(), runtime);
        stop.await();
        return 0;
    }

    private Map<String, Object> appOverrides(EmbeddedRuntime runtime) {
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, runtime.bootstrapServers());
        p.put(AppConfig.SCHEMA_REGISTRY_URL, runtime.registryUrl());
        p.put(AppConfig.STATE_DIR, dataDir.resolve("streams").toString());
        p.put(ServerConfig.HTTP_HOST, "127.0.0.1");
        p.put(ServerConfig.HTTP_PORT, httpPort);
        // One instance on one data directory: a static member, so a restart resumes its tasks without a rebalance.
        p.put(ServerConfig.GROUP_INSTANCE_ID, "statesync-up");
        p.put(ServerConfig.KINDS_SEED_FILE, demoKinds().toString());
        overrides.forEach((k, v) -> {
            if (!k.startsWith("simulator.") && !k.startsWith("agent.")) {
                p.put(k, v);
            }
        });
        return p;
    }

    /** The demo kinds' policies (health and validation rules), copied under the data directory for the seeder. */
    private Path demoKinds() {
        Path file = dataDir.resolve("demo-kinds.yaml");
        try (var in = UpCommand.class.getResourceAsStream("demo-kinds.yaml")) {
            Files.createDirectories(dataDir);
            Files.write(file, in.readAllBytes());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    private static void printBanner(int port, EmbeddedRuntime runtime) {
        String base = "http://127.0.0.1:" + port;
        System.out.println();
        System.out.println("statesync is up.");
        System.out.println("  web UI    " + base + "/");
        System.out.println("  REST      " + base + "/api/v1/resources");
        System.out.println("  ready     " + base + "/readyz");
        System.out.println("  metrics   " + base + "/metrics");
        System.out.println("  kafka     " + runtime.bootstrapServers());
        System.out.println("  registry  " + runtime.registryUrl());
        System.out.println("Try:");
        System.out.println("  curl -s -X PUT " + base + "/api/v1/resources/WebApp/default/shop -H 'Content-Type: application/json' \\");
        System.out.println("       -d '{\"spec\":{\"image\":\"nginx:1.21\",\"replicas\":2}}'");
        System.out.println("  curl -s " + base + "/api/v1/resources/WebApp/default/shop");
        System.out.println("  ./statesync list              # SYNC and HEALTH of every resource; --health Degraded filters");
        System.out.println("Ctrl-C stops everything; ./statesync up again resumes with all state.");
    }

    private static void shutdown(AutoCloseable agent, StatesyncApp app, EmbeddedRuntime runtime) {
        System.out.println("Stopping statesync ...");
        closeQuietly(agent);
        closeQuietly(app);
        closeQuietly(runtime);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            System.err.println("error while stopping " + c.getClass().getSimpleName() + ": " + e);
        }
    }
}
