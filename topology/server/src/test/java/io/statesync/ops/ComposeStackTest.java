package io.statesync.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The wiring of docker-compose.yml and the files it mounts, which `docker-compose config -q` does not check:
 * nothing here can run the containers, so a dangling path or a missing healthcheck would only show at `up`.
 */
class ComposeStackTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path root;
    private static JsonNode services;

    @BeforeAll
    static void readCompose() throws IOException {
        root = RepoRoot.find();
        services = YAML.readTree(root.resolve("docker-compose.yml").toFile()).path("services");
    }

    @Test
    void shouldRunTheWholeStack() {
        List<String> names = new ArrayList<>();
        services.fieldNames().forEachRemaining(names::add);
        assertThat(names).contains("kafka", "schema-registry", "statesync", "agent", "prometheus", "grafana");
    }

    @Test
    void shouldGiveAHealthcheckToEveryServiceOthersWaitForAsHealthy() {
        services.properties().forEach(service -> service.getValue().path("depends_on").properties().forEach(dep -> {
            if ("service_healthy".equals(dep.getValue().path("condition").asText())) {
                assertThat(services.path(dep.getKey()).path("healthcheck").path("test").isMissingNode())
                    .as("%s waits for %s to be healthy, which needs a healthcheck", service.getKey(), dep.getKey())
                    .isFalse();
            }
        }));
    }

    @Test
    void shouldMountOnlyPathsThatExist() {
        services.properties().forEach(service -> service.getValue().path("volumes").forEach(volume -> {
            String source = volume.asText().split(":")[0];
            if (source.startsWith("./")) {
                assertThat(root.resolve(source)).as("volume of %s", service.getKey()).exists();
            }
        }));
        JsonNode build = services.path("statesync").path("build");
        assertThat(root.resolve(build.path("context").asText()).resolve(build.path("dockerfile").asText())).isRegularFile();
    }

    @Test
    void shouldProbeReadinessAndRequireTokensWhenStatesyncListensBeyondLoopback() {
        JsonNode statesync = services.path("statesync");
        assertThat(statesync.path("healthcheck").path("test").toString()).contains("/readyz");
        JsonNode env = statesync.path("environment");
        assertThat(env.path("STATESYNC_HTTP_HOST").asText()).isEqualTo("0.0.0.0");
        assertThat(env.path("STATESYNC_AUTH_TOKENS").asText()).as("auth tokens, required off loopback").isNotBlank();
        assertThat(services.path("agent").path("image").asText()).isEqualTo(statesync.path("image").asText());
    }

    @Test
    void shouldScrapeTheStatesyncServiceAndLoadTheAlertRules() throws IOException {
        Path dir = root.resolve("ops/prometheus");
        JsonNode prometheus = YAML.readTree(dir.resolve("prometheus.yml").toFile());
        prometheus.path("rule_files").forEach(f -> assertThat(dir.resolve(f.asText())).isRegularFile());
        JsonNode job = null;
        for (JsonNode scrape : prometheus.path("scrape_configs")) {
            if ("statesync".equals(scrape.path("job_name").asText())) {
                job = scrape;
            }
        }
        assertThat(job).as("a scrape job named statesync (the alert rules select job=\"statesync\")").isNotNull();
        assertThat(job.path("static_configs").get(0).path("targets").get(0).asText()).isEqualTo("statesync:8080");
    }

    @Test
    void shouldReferenceTheProvisionedDatasourceFromEveryDashboardPanel() throws IOException {
        JsonNode datasources = YAML.readTree(root.resolve("ops/grafana/provisioning/datasources/prometheus.yml").toFile());
        String uid = datasources.path("datasources").get(0).path("uid").asText();
        assertThat(uid).isNotBlank();
        String home = services.path("grafana").path("environment").path("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH").asText();
        assertThat(root.resolve("ops/grafana/dashboards").resolve(Path.of(home).getFileName())).isRegularFile();
        try (Stream<Path> files = Files.list(root.resolve("ops/grafana/dashboards"))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                List<String> uids = new ArrayList<>();
                collectPrometheusDatasourceUids(JSON.readTree(file.toFile()), uids);
                assertThat(uids).as("prometheus datasource uids in %s", file.getFileName()).isNotEmpty().containsOnly(uid);
            }
        }
    }

    private static void collectPrometheusDatasourceUids(JsonNode node, List<String> out) {
        if (node.isObject()) {
            JsonNode ds = node.path("datasource");
            if ("prometheus".equals(ds.path("type").asText())) {
                out.add(ds.path("uid").asText());
            }
            node.properties().forEach(e -> collectPrometheusDatasourceUids(e.getValue(), out));
        } else if (node.isArray()) {
            node.forEach(child -> collectPrometheusDatasourceUids(child, out));
        }
    }
}
