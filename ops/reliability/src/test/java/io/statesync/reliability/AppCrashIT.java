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

    /**
     * From launching the JVM again after SIGKILL to {@code /readyz} 200. Almost all of a restart is the JVM's start,
     * class loading and start-up steps, which a busy machine stretches; this bound only stops a run that hangs
     * (docs/reliability.md, "App crash", gives the restarts seen).
     */
    static final Duration RESTART_BOUND = Duration.ofSeconds(120);

    /**
     * The part of a restart after statesync has started its streams: group join (and waiting out the dead member's
     * session, 6 s here), producer fencing, restoring the stores, loading the view. The bound sits below the default
     * 45 s session timeout, so that a restart that waits it out (without {@link CrashScenario#FAST_FAILOVER}) fails
     * here, where the whole-restart bound alone would not; docs/reliability.md ("App crash") gives the times seen.
     */
    static final Duration STREAMS_START_TO_READY_BOUND = Duration.ofSeconds(30);

    @TempDir
    Path workDir;

    @Test
    void shouldLoseNoAcknowledgedWriteNorDuplicateACorrectionWhenKilledWithSigkillUnderLoad(EmbeddedCluster cluster) throws Exception {
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(),
            workDir.resolve("state"), CrashScenario.FAST_FAILOVER);
        ScenarioTarget target = new ScenarioTarget(config, () -> true);

        CrashScenario.Report report = new CrashScenario(target, workDir)
            .run(3, Duration.ofSeconds(2), Duration.ofSeconds(5), 7L, RESTART_BOUND, Duration.ofSeconds(120));
        System.out.println("crash report: " + report);

        assertThat(report.timesToReady()).hasSize(3).allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(RESTART_BOUND));
        assertThat(report.streamsStartToReady()).as("from streams started to ready, per restart (whole restarts: %s)",
            report.timesToReady()).hasSize(3).allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(STREAMS_START_TO_READY_BOUND));
        OutcomeAssertions.assertNothingLostNorReplayed(report.load());
    }
}
