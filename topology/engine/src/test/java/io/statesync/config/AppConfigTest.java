package io.statesync.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AppConfigTest {

    @Test
    void shouldUseDocumentedDefaults() {
        AppConfig c = new AppConfig(Map.of());
        assertThat(c.getInt(AppConfig.TOPIC_PARTITIONS)).isEqualTo(6);
        assertThat(c.getString(AppConfig.PROCESSING_GUARANTEE)).isEqualTo(AppConfig.EXACTLY_ONCE_V2);
        assertThat(c.topicPrefix()).isEqualTo("statesync.");
        assertThat(c.getInt(AppConfig.HTTP_PORT)).isEqualTo(8080);
    }

    @Test
    void shouldFailFastOnAnOutOfRangeValue() {
        assertThatThrownBy(() -> new AppConfig(Map.of(AppConfig.TOPIC_PARTITIONS, "0")))
            .isInstanceOf(ConfigException.class).hasMessageContaining(AppConfig.TOPIC_PARTITIONS);
    }

    @Test
    void shouldFailFastOnAnUnknownGuarantee() {
        assertThatThrownBy(() -> new AppConfig(Map.of(AppConfig.PROCESSING_GUARANTEE, "exactly_once")))
            .isInstanceOf(ConfigException.class).hasMessageContaining(AppConfig.PROCESSING_GUARANTEE);
    }

    @Test
    void shouldFailFastWhenTimerWritesExceedTimerKeys() {
        assertThatThrownBy(() -> new AppConfig(Map.of(AppConfig.RESYNC_MAX_KEYS, "10", AppConfig.RESYNC_MAX_WRITES, "20")))
            .isInstanceOf(ConfigException.class).hasMessageContaining(AppConfig.RESYNC_MAX_WRITES);
    }

    @Test
    void shouldLetEnvironmentOverrideTheFileAndExplicitOverrideTheEnvironment(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("s.properties");
        Files.writeString(file, "http.port=9000\ntopic.partitions=3\n");
        AppConfig c = AppConfig.load(file, Map.of("STATESYNC_HTTP_PORT", "9100", "STATESYNC_KAFKA_SASL_MECHANISM", "PLAIN",
            "OTHER_VAR", "x"), Map.of(AppConfig.TOPIC_PARTITIONS, "4"));
        assertThat(c.getInt(AppConfig.HTTP_PORT)).isEqualTo(9100);
        assertThat(c.getInt(AppConfig.TOPIC_PARTITIONS)).isEqualTo(4);
        assertThat(c.clientProps(AppConfig.STREAMS_PREFIX)).containsEntry("sasl.mechanism", "PLAIN");
    }

    @Test
    void shouldGiveAnAdminClientItsOwnSettingsOverTheSharedOnesAndTheBootstrapServers() {
        AppConfig c = new AppConfig(Map.of(AppConfig.BOOTSTRAP_SERVERS, "a:1,b:2", "kafka.client.id", "shared",
            "kafka.sasl.mechanism", "PLAIN", "admin.client.id", "admin"));
        assertThat(c.adminProps()).containsEntry("bootstrap.servers", "a:1,b:2").containsEntry("client.id", "admin")
            .containsEntry("sasl.mechanism", "PLAIN");
    }

    @Test
    void shouldNotTakeTheLauncherVariablesForConfigurationKeys() {
        Map<String, String> fromEnv = AppConfig.fromEnvironment(Map.of("STATESYNC_CDS", "off", "STATESYNC_CDS_DIR", "/tmp/cds",
            "STATESYNC_HOME", "/opt/statesync", "STATESYNC_HTTP_PORT", "9100"));
        assertThat(fromEnv).containsOnlyKeys(AppConfig.HTTP_PORT);
    }

    @Test
    void shouldHideSecretsWhenDescribed() {
        AppConfig c = new AppConfig(Map.of(AppConfig.AUTH_TOKENS, "s3cret:writer",
            "kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required password=\"p\";"));
        assertThat(c.describe().toString()).doesNotContain("s3cret").doesNotContain("password=\"p\"");
        assertThat(c.describe()).containsEntry(AppConfig.AUTH_TOKENS, "[hidden]");
    }

    @Test
    void shouldDocumentEveryKey() {
        String md = AppConfig.docsMarkdown();
        for (String key : AppConfig.configDef().names()) {
            assertThat(md).contains("`" + key + "`");
        }
    }
}
