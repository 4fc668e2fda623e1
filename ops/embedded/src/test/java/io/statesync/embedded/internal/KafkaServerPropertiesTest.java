package io.statesync.embedded.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaServerPropertiesTest {
    @TempDir
    Path dataDir;

    @Test
    void shouldKeepPortsOfEarlierRunWhenPortIsRandom() {
        KafkaServerProperties first = KafkaServerProperties.forDataDir(dataDir, 0);
        first.write(dataDir.resolve(KafkaServerProperties.FILE_NAME));

        KafkaServerProperties second = KafkaServerProperties.forDataDir(dataDir, 0);

        assertThat(second.toProperties().getProperty("listeners"))
                .isEqualTo(first.toProperties().getProperty("listeners"));
    }

    @Test
    void shouldUseRequestedPortButKeepControllerPortOfEarlierRun() {
        KafkaServerProperties first = KafkaServerProperties.forDataDir(dataDir, 0);
        first.write(dataDir.resolve(KafkaServerProperties.FILE_NAME));

        Properties second = KafkaServerProperties.forDataDir(dataDir, 19092).toProperties();

        assertThat(KafkaServerProperties.portOf(second, "PLAINTEXT")).isEqualTo(19092);
        assertThat(KafkaServerProperties.portOf(second, "CONTROLLER"))
                .isEqualTo(KafkaServerProperties.portOf(first.toProperties(), "CONTROLLER"));
        assertThat(second.getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://127.0.0.1:19092");
    }

    @Test
    void shouldAddAnSslListenerWithItsOwnSettingsAndKeepItsPortAcrossRuns() {
        var ssl = io.statesync.embedded.ExtraListener.ssl(dataDir.resolve("broker.p12"), "changeit");
        KafkaServerProperties first = KafkaServerProperties.forDataDir(dataDir, 0, java.util.List.of(ssl));
        first.write(dataDir.resolve(KafkaServerProperties.FILE_NAME));
        Properties p = KafkaServerProperties.forDataDir(dataDir, 0, java.util.List.of(ssl)).toProperties();

        assertThat(KafkaServerProperties.portOf(p, "SSL")).isEqualTo(first.extraPort("SSL"))
                .isNotEqualTo(KafkaServerProperties.portOf(p, "PLAINTEXT"));
        assertThat(p.getProperty("advertised.listeners")).contains("SSL://127.0.0.1:" + first.extraPort("SSL"));
        assertThat(p.getProperty("listener.security.protocol.map")).contains("SSL:SSL");
        assertThat(p).containsEntry("listener.name.ssl.ssl.keystore.password", "changeit")
                .containsEntry("inter.broker.listener.name", "PLAINTEXT");
    }

    @Test
    void shouldLetBrokerWideOverridesWinOverTheDefaults() {
        Properties p = KafkaServerProperties.forDataDir(dataDir, 0)
                .withOverrides(java.util.Map.of("super.users", "User:ANONYMOUS", "num.partitions", "3")).toProperties();

        assertThat(p).containsEntry("super.users", "User:ANONYMOUS").containsEntry("num.partitions", "3");
    }

    @Test
    void shouldConfigureSingleNodeReplicationForInternalTopics() {
        Properties p = KafkaServerProperties.forDataDir(dataDir, 9092).toProperties();

        assertThat(p).containsEntry("process.roles", "broker,controller")
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("share.coordinator.state.topic.replication.factor", "1");
        assertThat(p.getProperty("log.dirs")).startsWith(dataDir.toAbsolutePath().toString());
    }

    @Test
    void shouldReportFormattedOnlyOnceMetaPropertiesExists() throws Exception {
        KafkaServerProperties server = KafkaServerProperties.forDataDir(dataDir, 0);
        assertThat(server.isFormatted()).isFalse();

        java.nio.file.Files.createDirectories(server.logDir());
        java.nio.file.Files.writeString(server.logDir().resolve("meta.properties"), "version=1\n");

        assertThat(server.isFormatted()).isTrue();
    }

    @Test
    void shouldFailClearlyWhenListenerIsMissing() {
        Properties p = new Properties();
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:9092");

        assertThatThrownBy(() -> KafkaServerProperties.portOf(p, "CONTROLLER"))
                .hasMessageContaining("No CONTROLLER listener");
    }
}
