package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.embedded.EmbeddedKafka;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A broker of its own (child process), since the shared one must never be stopped; the shared registry is fine. */
@ExtendWith(EmbeddedClusterExtension.class)
class BrokerRestartIT {

    @TempDir
    Path workDir;

    @Test
    void shouldReconnectWithoutOperatorActionAndLoseNoAcknowledgedWriteWhenTheBrokerRestarts(EmbeddedCluster cluster) throws Exception {
        try (EmbeddedKafka broker = EmbeddedKafka.childProcess(workDir.resolve("kafka"), 0).start()) {
            AppConfig config = InProcessApp.isolatedConfig(broker.bootstrapServers(), cluster.registryUrl(),
                workDir.resolve("state"), Map.of());
            try (InProcessApp app = InProcessApp.start(config, Duration.ofSeconds(60))) {
                BrokerRestartScenario.Report report = new BrokerRestartScenario(app.target(), broker)
                    .run(1, Duration.ofSeconds(4), Duration.ofSeconds(5), Duration.ofSeconds(90));
                System.out.println("broker restart report: " + report);

                assertThat(report.appRunningAtEnd()).isTrue();
                assertThat(report.load().ackedWrites()).isPositive();
                assertThat(report.load().lostWrites()).isZero();
                assertThat(report.load().duplicateCorrections()).as("samples %s", report.load().samples()).isZero();
            }
        }
    }
}
