package io.statesync.app;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.statesync.app.internal.ClassArchiveMarker;
import io.statesync.cli.StatesyncCli;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs one instance against an existing Kafka cluster and schema registry (production). */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run the pipeline and REST API against external bootstrap.servers and schema.registry.url.")
public final class RunCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, description = "Properties file; STATESYNC_* environment variables override it.")
    Path configFile;

    @Option(names = {"-D", "--set"}, description = "Override one key, e.g. -D http.port=8081.", mapFallbackValue = "")
    Map<String, String> overrides = Map.of();

    @Override
    public Integer call() throws InterruptedException {
        AppConfig config = AppConfig.load(configFile, System.getenv(), overrides);
        LoggingSetup.apply(config);
        CountDownLatch stopped = new CountDownLatch(1);
        StatesyncApp app = new StatesyncApp(config);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.close();
            stopped.countDown();
        }, "statesync-shutdown"));
        app.start();
        ClassArchiveMarker.markWhenReady(() -> app.restServer().readinessProblems().isEmpty());
        System.out.println("statesync running; REST on http://" + config.getString(ServerConfig.HTTP_HOST) + ":" + app.httpPort());
        stopped.await();
        return StatesyncCli.EXIT_OK;
    }
}
