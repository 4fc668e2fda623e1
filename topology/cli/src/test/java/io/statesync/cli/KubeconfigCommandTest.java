package io.statesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

class KubeconfigCommandTest {

    @Test
    void shouldPrintAKubeconfigWithClusterUserAndContextStatesyncInNamespaceDefault() {
        StringWriter out = new StringWriter();
        int exit = StatesyncCli.commandLine().setOut(new PrintWriter(out))
            .execute("kubeconfig", "--server", "https://statesync.example:8443/", "--token", "t\"1");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("kind: Config").contains("- name: statesync")
            .contains("server: \"https://statesync.example:8443\"").contains("token: \"t\\\"1\"")
            .contains("    cluster: statesync\n    user: statesync\n    namespace: default\n")
            .contains("current-context: statesync");
    }

    @Test
    void shouldLeaveTheUserWithoutCredentialsWhenThereIsNoToken() {
        assertThat(KubeconfigCommand.kubeconfig("http://127.0.0.1:8080", null)).contains("  user: {}\n").doesNotContain("token:");
    }
}
