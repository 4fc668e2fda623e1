package io.statesync.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code statesync} command's client side: every subcommand talks to an instance over HTTP. Exit codes: 0 ok,
 * 1 error, 2 usage, 3 conflict. The server adds {@code run} and {@code config}, which start or describe an instance,
 * and the distribution adds {@code up} (the embedded default), so this module needs neither Kafka Streams nor the
 * server to build a client.
 */
@Command(name = "statesync", mixinStandardHelpOptions = true, versionProvider = StatesyncCli.Version.class,
    description = "Kubernetes-style state reconciliation on Apache Kafka.",
    subcommands = {ApplyCommand.class, ResourceCommands.Get.class,
        ResourceCommands.ListResources.class, ResourceCommands.Diff.class, WatchCommand.class, ResourceCommands.Delete.class,
        ResourceCommands.Diagnose.class, DescribeCommand.class, TreeCommand.class, KindsCommand.class,
        KubeconfigCommand.class, MetadataCommands.Label.class, MetadataCommands.Annotate.class})
public final class StatesyncCli implements Callable<Integer> {

    public static final int EXIT_OK = 0;
    public static final int EXIT_ERROR = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_CONFLICT = 3;
    /** {@code apply --wait}: every write is stored, and at least one had not converged at the timeout. */
    public static final int EXIT_TIMEOUT = 4;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return EXIT_USAGE;
    }

    /** The command line with statesync's exit-code conventions; callers may add subcommands before executing. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new StatesyncCli());
        cl.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_ERROR);
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + e.getMessage());
            return EXIT_ERROR;
        });
        return cl;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = StatesyncCli.class.getPackage().getImplementationVersion();
            return new String[] {"statesync " + (v == null ? "dev" : v)};
        }
    }
}
