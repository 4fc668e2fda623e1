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

/** The CI-sized run of {@link FuzzScenario}; {@code SoakMain --scenario fuzz} runs the 10k one. */
@ExtendWith(EmbeddedClusterExtension.class)
class BadInputFuzzIT {

    @TempDir
    Path stateDir;

    @Test
    void shouldSendEveryBadRecordToTheDlqWithItsReasonAndKeepAdmittingGoodWrites(EmbeddedCluster cluster) throws Exception {
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(), stateDir,
            Map.of(AppConfig.SPEC_MAX_BYTES, 65_536));
        try (InProcessApp app = InProcessApp.start(config, Duration.ofSeconds(60))) {
            FuzzScenario.Report report = new FuzzScenario(app.target()).run(1_200, 10, 42L, Duration.ofSeconds(90));
            System.out.println("fuzz report: " + report);

            assertThat(report.problems()).isEmpty();
            assertThat(report.dlqMatched()).isEqualTo(report.badSent()).isEqualTo(1_200);
            assertThat(report.goodAccepted()).isEqualTo(report.goodSent()).isEqualTo(120);
            assertThat(report.reasons()).containsKeys("Deserialization", "InvalidKey", "KeyMismatch", "TooLarge", "TooDeep");
            assertThat(report.appAlwaysRunning()).isTrue();
        }
    }

    @Test
    void shouldRefuseWritesOfKindsWithDamagedPoliciesRetryablyAndKeepAdmittingOthers(EmbeddedCluster cluster) throws Exception {
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(), stateDir,
            Map.of(AppConfig.SPEC_MAX_BYTES, 65_536));
        try (InProcessApp app = InProcessApp.start(config, Duration.ofSeconds(60))) {
            FuzzScenario.KindsReport report = new FuzzScenario(app.target()).runKinds(60, 7L, Duration.ofSeconds(60));
            System.out.println("kinds fuzz report: " + report);

            assertThat(report.problems()).isEmpty();
            assertThat(report.refusedRetryably()).isEqualTo(report.damagedKinds()).isEqualTo(60);
            assertThat(report.goodAccepted()).isEqualTo(report.goodSent()).isEqualTo(60);
            assertThat(report.appAlwaysRunning()).isTrue();
        }
    }
}
