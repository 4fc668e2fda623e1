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

/** The CI-sized run of {@link CrashScenario} (3 kills); {@code SoakMain --scenario crash --iterations 20} runs the soak. */
@ExtendWith(EmbeddedClusterExtension.class)
class AppCrashIT {

    @TempDir
    Path workDir;

    @Test
    void shouldLoseNoAcknowledgedWriteNorDuplicateACorrectionWhenKilledWithSigkillUnderLoad(EmbeddedCluster cluster) throws Exception {
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(),
            workDir.resolve("state"), CrashScenario.FAST_FAILOVER);
        ScenarioTarget target = new ScenarioTarget(config, () -> true);

        CrashScenario.Report report = new CrashScenario(target, workDir)
            .run(3, Duration.ofSeconds(2), Duration.ofSeconds(5), 7L, Duration.ofSeconds(60));
        System.out.println("crash report: " + report);

        assertThat(report.timesToReady()).hasSize(3);
        OutcomeAssertions.assertNothingLostNorReplayed(report.load());
    }
}
