package io.statesync.launcher;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatesyncLauncherTest {

    @Test
    void shouldOfferUpAndAgentNextToTheCliCommands() {
        var cl = StatesyncLauncher.commandLine();
        assertThat(cl.getSubcommands()).containsKeys("up", "agent", "run", "config");
    }

    @Test
    void shouldExitWithUsageWhenAgentIsNotAskedToSimulate() {
        var cl = StatesyncLauncher.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("agent")).isEqualTo(2);
        assertThat(err.toString()).contains("--simulate");
    }

    @Test
    void shouldDescribeUpsPortsInItsHelp() {
        var cl = StatesyncLauncher.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute("up", "--help")).isZero();
        assertThat(out.toString()).contains("--kafka-port", "--registry-port", "--http-port", "--no-agent");
    }
}
