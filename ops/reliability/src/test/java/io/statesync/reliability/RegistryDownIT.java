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
        RegistryDownScenario.Report report = onOwnRegistry(cluster, Map.of(),
            scenario -> scenario.run(Duration.ofSeconds(4), Duration.ofSeconds(10), Duration.ofSeconds(90)));
        System.out.println("registry down report: " + report);

        assertThat(report.appAlwaysRunning()).isTrue();
        assertThat(report.writtenDuringOutage()).isPositive();
        assertThat(report.dlqRecords()).isZero();
        OutcomeAssertions.assertNothingLostNorReplayed(report.load());
    }

    /**
     * The risk of a fresh deployment: no schema cached yet, so nothing can be decoded until the registry is back. Each
     * failed decode ends the stream thread, and its replacement joins the group while the dead thread's member is
     * still in it: a short session timeout lets that member expire in seconds rather than after Kafka's much longer
     * default, which the run would otherwise wait out once the registry is back.
     */
    @Test
    void shouldLoseNothingAndDeadLetterNothingWhenTheRegistryIsDownBeforeAnySchemaIsCached(EmbeddedCluster cluster) throws Exception {
        RegistryDownScenario.Report report = onOwnRegistry(cluster, CrashScenario.FAST_FAILOVER,
            scenario -> scenario.runDownFromStart(Duration.ofSeconds(3), Duration.ofSeconds(15), Duration.ofSeconds(90)));
        System.out.println("registry down from the start report: " + report);

        assertThat(report.writtenDuringOutage()).as("nothing can be decoded without the registry").isZero();
        assertThat(report.appRunningAtEnd()).isTrue();
        assertThat(report.dlqRecords()).as("valid records dead-lettered for want of a registry").isZero();
        OutcomeAssertions.assertNothingLostNorReplayed(report.load());
    }

    private interface Run {
        RegistryDownScenario.Report on(RegistryDownScenario scenario) throws Exception;
    }

    private RegistryDownScenario.Report onOwnRegistry(EmbeddedCluster cluster, Map<String, Object> overrides, Run run)
        throws Exception {
        try (EmbeddedRegistry registry = new EmbeddedRegistry(workDir.resolve("registry"), 0).start()) {
            AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), registry.url(), workDir.resolve("state"), overrides);
            try (InProcessApp app = InProcessApp.start(config, Duration.ofSeconds(60))) {
                return run.on(new RegistryDownScenario(app.target(), registry));
            }
        }
    }
}
