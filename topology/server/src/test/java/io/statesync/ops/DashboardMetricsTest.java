package io.statesync.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.app.StatesyncApp;
import io.statesync.topology.ReconcileMetrics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every metric that ops/grafana dashboards and ops/prometheus alert rules query is one the app exports, so a
 * renamed meter breaks this test instead of silently emptying a panel or disarming an alert.
 */
class DashboardMetricsTest {

    /**
     * Names that exist only in a running instance, so a registry built in a unit test cannot show them; this quick
     * check lets them pass, and {@link DashboardMetricsIT} checks every name against a running instance's scrape.
     */
    private static final List<String> RUNTIME_ONLY_PREFIXES = List.of(
        // Micrometer's KafkaStreamsMetrics, bound in StatesyncApp.start() once KafkaStreams exists: client and
        // thread metrics (kafka_stream_client_state, kafka_stream_alive_stream_threads, kafka_stream_thread_*),
        "kafka_stream_",
        // and those of the clients it embeds (kafka_consumer_fetch_manager_records_lag_max, ...).
        "kafka_consumer_",
        "kafka_producer_",
        "kafka_admin_client_",
        // REST latency: a Micrometer Timer (tags method, route, status) the REST server registers on its first
        // request; Javalin's own Micrometer plugin is a separate artifact we do not ship.
        "statesync_http_server_requests_seconds",
        // JvmGcMetrics registers the pause timer on the first GC notification, not at bind time.
        "jvm_gc_pause_seconds");

    /** Series Prometheus itself attaches to every target; alerts on a down target use them. */
    private static final Set<String> PROMETHEUS_SYNTHETIC = Set.of("up", "scrape_duration_seconds", "scrape_samples_scraped");

    private static final List<String> DERIVED_SUFFIXES = List.of("_bucket", "_count", "_sum", "_max", "_created");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static Set<String> exported;
    private static String scrape;
    private static Path root;

    @BeforeAll
    static void scrapeTheAppRegistry() {
        root = RepoRoot.find();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new ReconcileMetrics(registry);
        StatesyncApp.bindJvmMetrics(registry);
        // The REST server binds one of these per background loop; an unstarted one exports the same names.
        new io.statesync.topology.LoopSupervisor("loop", () -> { }, java.time.Duration.ofMillis(1), java.time.Duration.ofMillis(1),
            java.time.Duration.ofMillis(1), System::nanoTime).bindTo(registry);
        scrape = registry.scrape();
        exported = exportedNames(scrape);
        registry.close();
    }

    @Test
    void shouldExportTheReconcileMetricsBeforeTheFirstEvent() {
        assertThat(exported).containsAll(DashboardMetricsIT.RECONCILE_METRICS);
    }

    @Test
    void shouldDescribeEveryReconcileMetricInItsHelpLine() {
        assertThat(exported).as("statesync metrics in the scrape").anyMatch(n -> n.startsWith("statesync_"));
        assertThat(PrometheusHelp.familiesWithoutHelp(scrape, "statesync_")).as("statesync metrics with a blank # HELP").isEmpty();
    }

    @Test
    void shouldReportAMetricWithoutHelp() {
        String scrape = "# HELP statesync_a_total Things done\n# TYPE statesync_a_total counter\nstatesync_a_total 1.0\n"
            + "# HELP statesync_b_total  \n# TYPE statesync_b_total counter\nstatesync_b_total 1.0\n"
            + "# TYPE statesync_c gauge\nstatesync_c 1.0\n# HELP jvm_x  \n# TYPE jvm_x gauge\njvm_x 1.0\n";
        assertThat(PrometheusHelp.familiesWithoutHelp(scrape, "statesync_")).containsExactly("statesync_b_total", "statesync_c");
    }

    @Test
    void shouldQueryOnlyExportedMetricsInEveryDashboard() throws IOException {
        List<Path> dashboards = grafanaJsonFiles();
        assertThat(dashboards).as("dashboards under ops/grafana").isNotEmpty();
        Map<String, Set<String>> unknown = new LinkedHashMap<>();
        int queries = 0;
        for (Path file : dashboards) {
            JsonNode dashboard = JSON.readTree(file.toFile());
            List<String> exprs = new ArrayList<>();
            collectExprs(dashboard, exprs);
            for (String expr : exprs) {
                queries++;
                checkExpr(root.relativize(file) + ": " + expr, PromQlMetricNames.of(expr), unknown);
            }
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                JsonNode q = variable.path("query");
                String query = q.isObject() ? q.path("query").asText("") : q.asText("");
                if ("query".equals(variable.path("type").asText()) && !query.isBlank()) {
                    checkExpr(root.relativize(file) + " variable " + variable.path("name").asText() + ": " + query,
                        PromQlMetricNames.ofVariableQuery(query), unknown);
                }
            }
        }
        assertThat(queries).as("queries found in the dashboards").isGreaterThan(10);
        assertThat(unknown).as("queries naming metrics the app does not export").isEmpty();
    }

    @Test
    void shouldQueryOnlyExportedMetricsInEveryAlertRule() throws IOException {
        Path rules = root.resolve("ops/prometheus/alerts.yml");
        JsonNode groups = YAML.readTree(rules.toFile()).path("groups");
        Map<String, Set<String>> unknown = new LinkedHashMap<>();
        int alerts = 0;
        for (JsonNode group : groups) {
            for (JsonNode rule : group.path("rules")) {
                String expr = rule.path("expr").asText();
                assertThat(expr).as("expr of %s", rule).isNotBlank();
                alerts++;
                checkExpr(rule.path("alert").asText(rule.path("record").asText()) + ": " + expr,
                    PromQlMetricNames.of(expr), unknown);
            }
        }
        assertThat(alerts).as("rules in %s", rules).isGreaterThanOrEqualTo(5);
        assertThat(unknown).as("alert rules naming metrics the app does not export").isEmpty();
    }

    @Test
    void shouldDescribeEveryAlertInTheOperationsGuide() throws IOException {
        String guide = Files.readString(root.resolve("docs/operations.md"));
        for (JsonNode group : YAML.readTree(root.resolve("ops/prometheus/alerts.yml").toFile()).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                if (rule.has("alert")) {
                    String name = rule.path("alert").asText();
                    assertThat(guide).as("a '### %s' section in docs/operations.md", name).contains("### " + name + "\n");
                    assertThat(rule.path("annotations").path("runbook_url").asText())
                        .as("runbook_url of %s", name).endsWith("docs/operations.md#" + name.toLowerCase());
                }
            }
        }
    }

    @Test
    void shouldReportAMetricNameTheAppDoesNotExport() {
        Map<String, Set<String>> unknown = new LinkedHashMap<>();
        checkExpr("probe", PromQlMetricNames.of(
            "sum by (kind) (rate(statesync_reconcile_total[5m])) / sum(rate(statesync_reconciles_totl{kind=\"x\"}[5m]))"),
            unknown);
        assertThat(unknown).containsExactly(Map.entry("probe", Set.of("statesync_reconciles_totl")));
    }

    @Test
    void shouldExtractOnlyMetricNamesFromPromQl() {
        assertThat(PromQlMetricNames.of("histogram_quantile(0.99, sum by (le, kind) "
            + "(rate(statesync_convergence_seconds_bucket{kind=~\"$kind\"}[$__rate_interval]))) > 1e3"))
            .containsExactly("statesync_convergence_seconds_bucket");
        assertThat(PromQlMetricNames.of("up{job=\"statesync\"} == 0 or kafka_stream_client_state != bool 2 offset 5m"))
            .containsExactly("up", "kafka_stream_client_state");
        assertThat(PromQlMetricNames.of("a_total / on(instance) group_left(kind) b unless ignoring(x) c"))
            .containsExactly("a_total", "b", "c");
        assertThat(PromQlMetricNames.ofVariableQuery("label_values(statesync_resources{kind!=\"none\"}, kind)"))
            .containsExactly("statesync_resources");
        assertThat(PromQlMetricNames.ofVariableQuery("label_values(instance)")).isEmpty();
    }

    private static void checkExpr(String where, Set<String> names, Map<String, Set<String>> unknown) {
        assertThat(names).as("metric names in %s", where).isNotEmpty();
        Set<String> missing = new TreeSet<>();
        for (String name : names) {
            if (!isExported(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            unknown.put(where, missing);
        }
    }

    private static boolean isExported(String name) {
        if (exported.contains(name) || PROMETHEUS_SYNTHETIC.contains(name)) {
            return true;
        }
        for (String suffix : DERIVED_SUFFIXES) {
            if (name.endsWith(suffix) && exported.contains(name.substring(0, name.length() - suffix.length()))) {
                return true;
            }
        }
        return RUNTIME_ONLY_PREFIXES.stream().anyMatch(name::startsWith);
    }

    /** Sample names and the base names of the {@code # TYPE} lines of a Prometheus text scrape. */
    static Set<String> exportedNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                names.add(line.split(" ")[2]);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                int end = 0;
                while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                    end++;
                }
                names.add(line.substring(0, end));
            }
        }
        return names;
    }

    private static List<Path> grafanaJsonFiles() throws IOException {
        try (Stream<Path> files = Files.walk(root.resolve("ops/grafana"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    /** Every {@code expr} string anywhere in the dashboard (panel targets, nested rows, library panels). */
    static void collectExprs(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.properties().forEach(e -> {
                if ("expr".equals(e.getKey()) && e.getValue().isTextual()) {
                    out.add(e.getValue().asText());
                } else {
                    collectExprs(e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(child -> collectExprs(child, out));
        }
    }
}
