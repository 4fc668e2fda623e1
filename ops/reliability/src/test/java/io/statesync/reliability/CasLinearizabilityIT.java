package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The CI-sized run of {@link CasScenario}; {@code SoakMain --scenario cas} runs the 10k one. */
@ExtendWith(EmbeddedClusterExtension.class)
class CasLinearizabilityIT {

    @TempDir
    Path stateDir;

    @Test
    void shouldApplyEveryAcceptedConditionalWriteOnExactlyTheVersionItExpected(EmbeddedCluster cluster) throws Exception {
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(), stateDir, Map.of());
        try (InProcessApp app = InProcessApp.start(config, Duration.ofSeconds(60))) {
            CasScenario.Report report = new CasScenario(app.target()).run(4, 100, 1_000, Duration.ofSeconds(90));
            System.out.println("cas report: " + report);

            assertThat(report.violations()).isEmpty();
            assertThat(report.unanswered()).isZero();
            assertThat(report.writes()).isEqualTo(1_000);
            // Both outcomes must occur, or the writers did not really race.
            assertThat(report.accepted()).isPositive();
            assertThat(report.conflicts()).isPositive();
        }
    }
}
