package io.statesync.kubernetes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard and alert rules the overlays deploy are those of ops/grafana and ops/prometheus: kustomize reads no
 * file outside ops/kubernetes/base, so the base holds copies, which this keeps identical
 * ({@code -Dstatesync.kubernetes.write=true} copies them again). And the ServiceMonitor scrapes what the rules select.
 */
class MonitoringManifestsTest {

    private static final boolean WRITE = Boolean.getBoolean("statesync.kubernetes.write");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern JOB = Pattern.compile("job=\"([^\"]+)\"");
    private static final String RULE_HEADER = """
        # Generated from ops/prometheus/alerts.yml by MonitoringManifestsTest (-Dstatesync.kubernetes.write=true): edit
        # alerts.yml, then copy it here again. The Prometheus Operator's form of the same rules.
        apiVersion: monitoring.coreos.com/v1
        kind: PrometheusRule
        metadata:
          name: statesync
        spec:
        """;

    @Test
    void shouldKeepTheBasesCopiesOfTheDashboardAndTheAlertRules() throws IOException {
        Path root = RenderedOverlay.repositoryRoot();
        Path base = root.resolve("ops/kubernetes/base/monitoring");
        keepCopy(base.resolve("statesync.json"), Files.readString(root.resolve("ops/grafana/dashboards/statesync.json")));
        keepCopy(base.resolve("prometheusrule.yaml"), prometheusRule(Files.readString(root.resolve("ops/prometheus/alerts.yml"))));
    }

    private static void keepCopy(Path copy, String expected) throws IOException {
        if (WRITE) {
            Files.writeString(copy, expected);
        }
        assertThat(Files.readString(copy)).as("%s is a copy; run this test with -Dstatesync.kubernetes.write=true", copy)
            .isEqualTo(expected);
    }

    /** alerts.yml's groups under a PrometheusRule's spec, comments kept. */
    static String prometheusRule(String alerts) {
        String groups = alerts.substring(alerts.indexOf("\ngroups:") + 1);
        StringBuilder out = new StringBuilder(RULE_HEADER);
        groups.lines().forEach(line -> out.append(line.isEmpty() ? "" : "  " + line).append('\n'));
        return out.toString();
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldDeployTheDashboardAndTheAlertRulesOfOps(RenderedOverlay overlay) throws IOException {
        Path root = RenderedOverlay.repositoryRoot();
        JsonNode dashboards = overlay.all("ConfigMap").stream()
            .filter(c -> "1".equals(c.path("metadata").path("labels").path("grafana_dashboard").asText())).findFirst()
            .orElseThrow(() -> new AssertionError(overlay + " renders no ConfigMap labelled grafana_dashboard"));
        assertThat(JSON.readTree(dashboards.path("data").path("statesync.json").asText()))
            .isEqualTo(JSON.readTree(root.resolve("ops/grafana/dashboards/statesync.json").toFile()));
        JsonNode alerts = RenderedOverlay.YAML.readTree(root.resolve("ops/prometheus/alerts.yml").toFile());
        assertThat(overlay.only("PrometheusRule").path("spec").path("groups")).isEqualTo(alerts.path("groups"));
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldScrapeEveryInstanceUnderTheJobTheAlertRulesSelect(RenderedOverlay overlay) throws IOException {
        JsonNode monitor = overlay.only("ServiceMonitor").path("spec");
        List<JsonNode> services = overlay.all("Service").stream()
            .filter(s -> InstanceWiringTest.selects(monitor.path("selector").path("matchLabels"), s.path("metadata").path("labels")))
            .toList();
        assertThat(services).as("%s: the ServiceMonitor selects one Service (two would scrape each pod twice)", overlay).hasSize(1);
        JsonNode service = services.get(0);
        String job = service.path("metadata").path("labels").path(monitor.path("jobLabel").asText()).asText();
        assertThat(job).as("the job, from the Service's label %s", monitor.path("jobLabel")).isEqualTo("statesync")
            .isIn(jobsTheRulesSelect());
        JsonNode endpoint = monitor.path("endpoints").get(0);
        // GET /metrics: the REST server's Prometheus route, open without a token.
        assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
        JsonNode port = null;
        for (JsonNode p : service.path("spec").path("ports")) {
            port = endpoint.path("port").asText().equals(p.path("name").asText()) ? p : port;
        }
        assertThat(port).as("the endpoint's port is a port of the Service").isNotNull();
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        assertThat(InstanceWiringTest.containerPort(instance.container(), port.path("targetPort")))
            .as("/metrics is served on http.port").isEqualTo(instance.config().getInt(ServerConfig.HTTP_PORT));
    }

    private static Set<String> jobsTheRulesSelect() throws IOException {
        Set<String> jobs = new TreeSet<>();
        Matcher m = JOB.matcher(Files.readString(RenderedOverlay.repositoryRoot().resolve("ops/prometheus/alerts.yml")));
        while (m.find()) {
            jobs.add(m.group(1));
        }
        assertThat(jobs).as("the job alerts.yml selects").hasSize(1);
        return jobs;
    }
}
