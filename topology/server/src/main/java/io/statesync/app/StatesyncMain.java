package io.statesync.app;

import io.statesync.cli.StatesyncCli;
import picocli.CommandLine;

/** {@code statesync}: the client commands plus {@code run} and {@code config}, which need the server. */
public final class StatesyncMain {

    private StatesyncMain() {
    }

    /** The full command line; the distribution adds {@code up} and {@code agent} before executing. */
    public static CommandLine commandLine() {
        return StatesyncCli.commandLine()
            .addSubcommand(new RunCommand())
            .addSubcommand(new ConfigCommand());
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
