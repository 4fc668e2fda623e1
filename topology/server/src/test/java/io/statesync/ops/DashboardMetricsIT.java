package io.statesync.ops;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The names every Grafana panel and every alert rule query, checked against the scrape of a running instance on a
 * real broker: no allow-list, so consumer lag, Streams client state and REST latency are checked like the rest.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class DashboardMetricsIT {

    /** Every meter {@code ReconcileMetrics} registers, each exported before the first event. */
    static final List<String> RECONCILE_METRICS = List.of("statesync_admission_total", "statesync_conflicts_total",
        "statesync_convergence_seconds", "statesync_corrections_delayed_total", "statesync_corrections_emitted_total",
        "statesync_dlq_records_total",
        "statesync_inflight_corrections", "statesync_queue_depth", "statesync_reconcile_duration_seconds", "statesync_reconcile_total",
        "statesync_resources", "statesync_stale_observations_total");

    private static final Set<String> PROMETHEUS_SYNTHETIC = Set.of("up", "scrape_duration_seconds", "scrape_samples_scraped");
    private static final List<String> DERIVED_SUFFIXES = List.of("_bucket", "_count", "_sum", "_max", "_created");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static StatesyncApp app;
    private static String base;
    private static String scrapeAtStart;

    @BeforeAll
    static void startAnInstance() throws IOException, InterruptedException {
        String prefix = "dash-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, EmbeddedClusterExtension.bootstrapServers());
        p.put(AppConfig.SCHEMA_REGISTRY_URL, EmbeddedClusterExtension.registryUrl());
        p.put(AppConfig.APPLICATION_ID, prefix + "app");
        p.put(AppConfig.TOPIC_PREFIX, prefix);
        p.put(ServerConfig.TOPIC_PARTITIONS, 2);
        p.put(AppConfig.NUM_STREAM_THREADS, 1);
        p.put(AppConfig.COMMIT_INTERVAL_MS, 50L);
        p.put(ServerConfig.HTTP_PORT, 0);
        p.put(AppConfig.STATE_DIR, Files.createTempDirectory("statesync-dashboard-it").toString());
        app = new StatesyncApp(new AppConfig(p));
        app.start();
        base = "http://127.0.0.1:" + app.httpPort();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
            .until(() -> get("/readyz").statusCode() == 200);
        scrapeAtStart = get("/metrics").body();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void shouldExportEveryReconcileMetricAtZeroBeforeTheFirstEvent() {
        Set<String> names = DashboardMetricsTest.exportedNames(scrapeAtStart);
        assertThat(names).containsAll(RECONCILE_METRICS);
        for (String line : scrapeAtStart.split("\n")) {
            if (line.startsWith("statesync_") && (line.contains("_total") || line.startsWith("statesync_resources"))) {
                assertThat(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).as(line).isZero();
            }
        }
    }

    @Test
    void shouldExportEveryMetricThatAPanelOrAnAlertQueries() throws Exception {
        String key = "/api/v1/resources/WebApp/default/dash-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> put = send(HttpRequest.newBuilder(URI.create(base + key))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"spec\":{\"image\":\"nginx:1.21\",\"replicas\":2}}")));
        assertThat(put.statusCode()).as(put.body()).isBetween(200, 201);
        assertThat(get(key).statusCode()).isEqualTo(200);
        System.gc();
        Map<String, Set<String>> missing = new LinkedHashMap<>();
        // Client meters (consumer lag among them) appear once the clients have fetched; give the scrape that long.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        do {
            missing.clear();
            missing.putAll(unexportedQueries(DashboardMetricsTest.exportedNames(get("/metrics").body())));
            Thread.sleep(missing.isEmpty() ? 0 : 1000);
        } while (!missing.isEmpty() && System.nanoTime() < deadline);
        assertThat(missing).as("queries naming metrics the running instance does not export").isEmpty();
    }

    private static Map<String, Set<String>> unexportedQueries(Set<String> exported) throws IOException {
        Path root = RepoRoot.find();
        Map<String, Set<String>> unknown = new LinkedHashMap<>();
        try (var files = Files.walk(root.resolve("ops/grafana"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                List<String> exprs = new java.util.ArrayList<>();
                DashboardMetricsTest.collectExprs(JSON.readTree(file.toFile()), exprs);
                for (String expr : exprs) {
                    check(root.relativize(file) + ": " + expr, PromQlMetricNames.of(expr), exported, unknown);
                }
            }
        }
        JsonNode groups = new ObjectMapper(new YAMLFactory()).readTree(root.resolve("ops/prometheus/alerts.yml").toFile());
        for (JsonNode group : groups.path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                check(rule.path("alert").asText(rule.path("record").asText()), PromQlMetricNames.of(rule.path("expr").asText()),
                    exported, unknown);
            }
        }
        return unknown;
    }

    private static void check(String where, Set<String> names, Set<String> exported, Map<String, Set<String>> unknown) {
        Set<String> missing = new TreeSet<>();
        for (String name : names) {
            boolean derived = DERIVED_SUFFIXES.stream().anyMatch(s -> name.endsWith(s)
                && exported.contains(name.substring(0, name.length() - s.length())));
            if (!exported.contains(name) && !PROMETHEUS_SYNTHETIC.contains(name) && !derived) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            unknown.put(where, missing);
        }
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
