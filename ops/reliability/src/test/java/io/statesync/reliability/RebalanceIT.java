package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The CI-sized run of {@link RebalanceScenario}: one clean stop and one SIGKILL of the same instance. */
@ExtendWith(EmbeddedClusterExtension.class)
class RebalanceIT {

    @TempDir
    Path workDir;

    @Test
    void shouldLoseNoWriteNorDuplicateACorrectionAndNeverAnswer500WhenAnInstanceLeavesAndComesBack(EmbeddedCluster cluster)
        throws Exception {
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(),
            workDir.resolve("state"), RebalanceScenario.SETTINGS);
        ScenarioTarget target = new ScenarioTarget(config, () -> true);

        RebalanceScenario.Report report = new RebalanceScenario(target, workDir)
            .run(2, Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofSeconds(120));
        System.out.println("rebalance report: " + report);

        assertThat(report.timesToAllRunning()).hasSize(2);
        OutcomeAssertions.assertNothingLostNorReplayed(report.load());
        assertThat(report.notSynced()).as("keys not Synced at their generation").isEmpty();
        assertThat(report.restViolations()).as("REST answers other than 200, 404, 503+Retry-After: %s", report.violationSamples())
            .isZero();
        assertThat(report.restAnswers().get("a")).containsKey("200");
        assertThat(report.restAnswers().get("b")).containsKey("200");
    }
}
