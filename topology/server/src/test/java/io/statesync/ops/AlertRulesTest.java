package io.statesync.ops;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The unit tests of the alert rules, {@code promtool test rules ops/prometheus/alerts.test.yml}, run as the comment at
 * the top of that file says: each alert fires on the series it is meant for, with the labels and annotations an
 * operator sees, and stays quiet otherwise. DashboardMetricsTest checks that the metrics they query exist.
 */
class AlertRulesTest {

    private static final String TESTS = "ops/prometheus/alerts.test.yml";
    private static final String RULES = "ops/prometheus/alerts.yml";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void shouldPassPromtoolsUnitTestsOfTheAlertRules() throws Exception {
        Optional<Path> promtool = promtool();
        String skipped = "promtool is neither on the PATH nor in /usr/bin (.ci/run installs Debian's prometheus package, "
            + "which ships it); skipping `promtool test rules " + TESTS + "`";
        if (promtool.isEmpty()) {
            System.err.println("AlertRulesTest: " + skipped); // on the build's console too, not only in the report
        }
        assumeTrue(promtool.isPresent(), skipped);
        Path root = RepoRoot.find();
        Process p = new ProcessBuilder(promtool.get().toString(), "test", "rules", TESTS).directory(root.toFile())
            .redirectErrorStream(true).start();
        // Read before waiting: a full pipe would block promtool.
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("promtool test rules finished within 120 s").isTrue();
        assertThat(p.exitValue()).as("exit status of promtool test rules %s; it said:%n%s", TESTS, output).isZero();
        assertThat(output).as("promtool's report").contains("SUCCESS").doesNotContain("FAILED");
    }

    /** promtool only tests what alerts.test.yml names, so an alert without a test case would pass unnoticed. */
    @Test
    void shouldTestEveryAlertRule() throws IOException {
        Path root = RepoRoot.find();
        Set<String> alerts = new TreeSet<>();
        for (JsonNode group : YAML.readTree(root.resolve(RULES).toFile()).path("groups")) {
            group.path("rules").forEach(rule -> alerts.add(rule.path("alert").asText()));
        }
        Set<String> tested = new TreeSet<>();
        for (JsonNode test : YAML.readTree(root.resolve(TESTS).toFile()).path("tests")) {
            test.path("alert_rule_test").forEach(t -> {
                if (!t.path("exp_alerts").isEmpty()) {
                    tested.add(t.path("alertname").asText());
                }
            });
        }
        assertThat(alerts).as("alerts in %s", RULES).isNotEmpty();
        assertThat(tested).as("alerts that %s expects to fire at least once", TESTS).containsAll(alerts);
    }

    /** promtool from the PATH (Debian's prometheus package puts it in /usr/bin). */
    private static Optional<Path> promtool() {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/bin";
        return Stream.of(path.split(File.pathSeparator)).filter(dir -> !dir.isBlank())
            .map(dir -> Path.of(dir, "promtool")).filter(Files::isExecutable).findFirst();
    }
}
