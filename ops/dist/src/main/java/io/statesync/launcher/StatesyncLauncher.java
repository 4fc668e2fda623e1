package io.statesync.launcher;

import io.statesync.app.StatesyncMain;
import picocli.CommandLine;

/** The distribution's main: the statesync CLI plus {@code up}, which needs the embedded runtime and the demo agent. */
public final class StatesyncLauncher {

    private StatesyncLauncher() {
    }

    public static CommandLine commandLine() {
        CommandLine cl = StatesyncMain.commandLine();
        cl.addSubcommand("up", new UpCommand());
        cl.addSubcommand("agent", new AgentCommand());
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
