package io.statesync.launcher;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.statesync.app.LoggingSetup;
import io.statesync.config.AppConfig;
import io.statesync.simulator.SimulatedFleet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code statesync agent --simulate}: the demo fleet as a process of its own, against an existing cluster
 * (the compose stack's agent). A real agent is a program written against the agent library; see connectors/README.md.
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
    description = "Run the simulated demo fleet as an agent against bootstrap.servers and schema.registry.url.")
public final class AgentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--simulate", description = "Run the in-memory fleet simulator (the only built-in agent).")
    boolean simulate;

    @Option(names = {"-c", "--config"}, description = "Properties file; STATESYNC_* environment variables override it.")
    Path configFile;

    @Option(names = {"-D", "--set"}, description = "Override a key, e.g. -D simulator.failure.rate=0.2.")
    Map<String, String> overrides = new HashMap<>();

    @Override
    public Integer call() throws InterruptedException {
        if (!simulate) {
            throw new ParameterException(spec.commandLine(), "only --simulate is built in; write a real agent with the agent library");
        }
        Map<String, String> appKeys = new HashMap<>();
        overrides.forEach((k, v) -> {
            if (!k.startsWith("simulator.") && !k.startsWith("agent.")) {
                appKeys.put(k, v);
            }
        });
        AppConfig config = AppConfig.load(configFile, System.getenv(), appKeys);
        LoggingSetup.apply(config);
        CountDownLatch stop = new CountDownLatch(1);
        SimulatedFleet fleet = DemoAgent.start(config, overrides);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            fleet.close();
            stop.countDown();
        }, "statesync-agent-shutdown"));
        System.out.println("statesync demo agent running against " + config.getList(AppConfig.BOOTSTRAP_SERVERS));
        stop.await();
        return 0;
    }
}
