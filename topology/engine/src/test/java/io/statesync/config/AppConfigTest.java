package io.statesync.config;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AppConfigTest {

    /** Engine keys that only AppConfig's own methods read, and the engine through them. */
    private static final Map<String, String> READ_THROUGH_APP_CONFIG = Map.of(
        AppConfig.TOPIC_PREFIX, "topicPrefix(), which StatesyncTopology calls for every topic name");

    @Test
    void shouldUseDocumentedDefaults() {
        AppConfig c = new AppConfig(Map.of());
        assertThat(c.getInt(AppConfig.NUM_STREAM_THREADS)).isEqualTo(2);
        assertThat(c.getString(AppConfig.PROCESSING_GUARANTEE)).isEqualTo(AppConfig.EXACTLY_ONCE_V2);
        assertThat(c.topicPrefix()).isEqualTo("statesync.");
    }

    @Test
    void shouldFailFastOnAnOutOfRangeValue() {
        assertThatThrownBy(() -> new AppConfig(Map.of(AppConfig.NUM_STREAM_THREADS, "0")))
            .isInstanceOf(ConfigException.class).hasMessageContaining(AppConfig.NUM_STREAM_THREADS);
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
        Files.writeString(file, "num.stream.threads=3\nnum.standby.replicas=1\n");
        AppConfig c = AppConfig.load(file, Map.of("STATESYNC_NUM_STREAM_THREADS", "4", "STATESYNC_KAFKA_SASL_MECHANISM", "PLAIN",
            "OTHER_VAR", "x"), Map.of(AppConfig.NUM_STANDBY_REPLICAS, "2"));
        assertThat(c.getInt(AppConfig.NUM_STREAM_THREADS)).isEqualTo(4);
        assertThat(c.getInt(AppConfig.NUM_STANDBY_REPLICAS)).isEqualTo(2);
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
            "STATESYNC_HOME", "/opt/statesync", "STATESYNC_NUM_STREAM_THREADS", "4"));
        assertThat(fromEnv).containsOnlyKeys(AppConfig.NUM_STREAM_THREADS);
    }

    @Test
    void shouldHideSecretsWhenDescribed() {
        AppConfig c = new AppConfig(Map.of("producer.ssl.key.password", "s3cret",
            "kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required password=\"p\";"));
        assertThat(c.describe().toString()).doesNotContain("s3cret").doesNotContain("password=\"p\"");
        assertThat(c.describe()).containsEntry("producer.ssl.key.password", "[hidden]");
    }

    @Test
    void shouldDocumentEveryKey() {
        String md = AppConfig.docsMarkdown();
        for (String key : AppConfig.configDef().names()) {
            assertThat(md).contains("`" + key + "`");
        }
    }

    @Test
    void shouldDefineOnlyKeysTheEngineReads() throws IOException {
        String engineSources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            engineSources = files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("AppConfig.java"))
                .map(AppConfigTest::read).collect(Collectors.joining("\n"));
        }
        Map<String, String> constantOfKey = constantsByValue();
        List<String> unread = AppConfig.engineConfigDef().names().stream()
            .filter(key -> !READ_THROUGH_APP_CONFIG.containsKey(key))
            .filter(key -> !Pattern.compile("\\b" + constantOfKey.get(key) + "\\b").matcher(engineSources).find())
            .sorted().toList();
        assertThat(unread).as("keys the engine does not read belong in the section of the module that does").isEmpty();
    }

    @Test
    void shouldHoldOnlyTheEngineKeysWithoutAnotherModuleOnTheClassPath() {
        assertThat(AppConfig.sections()).isEmpty();
        assertThat(AppConfig.configDef().names()).isEqualTo(AppConfig.engineConfigDef().names());
    }

    private static Map<String, String> constantsByValue() {
        Map<String, String> out = new HashMap<>();
        for (Field f : AppConfig.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                try {
                    out.putIfAbsent((String) f.get(null), f.getName());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return out;
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
