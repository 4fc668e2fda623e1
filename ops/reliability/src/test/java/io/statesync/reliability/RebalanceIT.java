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

/**
 * The CI-sized run of {@link RebalanceScenario}: one clean stop and one SIGKILL of instance a. Instance b serves
 * throughout and is held to {@link RebalanceScenario#REST_BOUNDS}: every written key answered with its newest committed
 * version (or a stale copy within max.stale.lag, or 503 with Retry-After for a bounded time), every answer in time.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RebalanceIT {

    @TempDir
    Path workDir;

    @Test
    void shouldLoseNoWriteNorDuplicateACorrectionAndKeepAnsweringReadsWhenAnInstanceLeavesAndComesBack(EmbeddedCluster cluster)
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
        assertThat(report.restViolations()).as("REST answers outside %s: %s", RebalanceScenario.REST_BOUNDS, report.violationSamples())
            .isZero();
        // Not vacuous: both instances answered written keys, and b (never stopped) answered while a was away.
        assertThat(report.rest("a", "200")).isPositive();
        assertThat(report.rest("b", "200")).isPositive();
        assertThat(report.rest("b", "answered during a rebalance")).isPositive();
    }
}
