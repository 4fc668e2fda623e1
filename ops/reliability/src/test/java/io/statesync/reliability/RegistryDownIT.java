package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.embedded.EmbeddedRegistry;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A registry of its own (its H2 file keeps the ids across the restart), since the shared one must stay up. */
@ExtendWith(EmbeddedClusterExtension.class)
class RegistryDownIT {

    @TempDir
    Path workDir;

    @Test
    void shouldKeepReconcilingFromCachedSchemasAndLoseNothingWhileTheRegistryIsDown(EmbeddedCluster cluster) throws Exception {
        try (EmbeddedRegistry registry = new EmbeddedRegistry(workDir.resolve("registry"), 0).start()) {
            AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), registry.url(), workDir.resolve("state"), Map.of());
            try (InProcessApp app = InProcessApp.start(config, Duration.ofSeconds(60))) {
                RegistryDownScenario.Report report = new RegistryDownScenario(app.target(), registry)
                    .run(Duration.ofSeconds(4), Duration.ofSeconds(10), Duration.ofSeconds(90));
                System.out.println("registry down report: " + report);

                assertThat(report.appAlwaysRunning()).isTrue();
                assertThat(report.writtenDuringOutage()).isPositive();
                assertThat(report.load().lostWrites()).isZero();
                assertThat(report.load().duplicateCorrections()).as("samples %s", report.load().samples()).isZero();
            }
        }
    }
}
