package io.statesync.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.statesync.cli.internal.ApiClient;
import io.statesync.cli.internal.Output;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CliOutputTest {

    @Test
    void shouldAlignTableColumnsToTheWidestCell() {
        StringWriter out = new StringWriter();
        Output.table(new PrintWriter(out), List.of("NAME", "SYNC"), List.of(List.of("a-long-name", "Synced"), List.of("b", "OutOfSync")));
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0).indexOf("SYNC")).isEqualTo(lines.get(1).indexOf("Synced")).isEqualTo(lines.get(2).indexOf("OutOfSync"));
    }

    @Test
    void shouldEncodeOnlyTheGivenQueryParameters() {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("kind", "WebApp");
        q.put("namespace", null);
        q.put("labelSelector", "tier in (web,db)");
        assertThat(ApiClient.query(q)).isEqualTo("?kind=WebApp&labelSelector=tier+in+%28web%2Cdb%29");
        assertThat(ApiClient.query(Map.of())).isEmpty();
    }

    @Test
    void shouldBuildResourcePathsFromKeysAndRejectOtherText() {
        assertThat(ApiClient.resourcePath("WebApp/default/shop")).isEqualTo("/api/v1/resources/WebApp/default/shop");
        assertThatThrownBy(() -> ApiClient.resourcePath("WebApp/shop")).hasMessageContaining("KIND/NAMESPACE/NAME");
    }

    @Test
    void shouldExitWithUsageWhenARequiredOptionIsMissing() {
        CommandLine cl = StatesyncCli.commandLine();
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("apply")).isEqualTo(StatesyncCli.EXIT_USAGE);
        assertThat(cl.execute("kinds")).isEqualTo(StatesyncCli.EXIT_USAGE);
    }
}
