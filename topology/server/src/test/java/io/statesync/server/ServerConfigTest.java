package io.statesync.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.statesync.config.AppConfig;
import io.statesync.config.ConfigSection;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerConfigTest {

    @Test
    void shouldComposeTheServerKeysIntoTheApplicationsConfig() {
        assertThat(AppConfig.sections()).hasExactlyElementsOfTypes(ServerConfig.class);
        AppConfig c = new AppConfig(Map.of());
        assertThat(c.getInt(ServerConfig.HTTP_PORT)).isEqualTo(8080);
        assertThat(c.getInt(ServerConfig.TOPIC_PARTITIONS)).isEqualTo(6);
        assertThat(c.getInt(AppConfig.NUM_STREAM_THREADS)).isEqualTo(2);
    }

    @Test
    void shouldDefineEveryKeyInExactlyOneSection() {
        List<ConfigDef> defs = Stream.concat(Stream.of(AppConfig.engineConfigDef()),
            AppConfig.sections().stream().map(ConfigSection::configDef)).toList();
        assertThat(AppConfig.configDef().names()).isNotEmpty().allSatisfy(key ->
            assertThat(defs.stream().filter(d -> d.names().contains(key)).count()).as(key).isEqualTo(1));
        assertThat(defs.stream().mapToInt(d -> d.names().size()).sum()).isEqualTo(AppConfig.configDef().names().size());
    }

    @Test
    void shouldFailFastOnAnOutOfRangeServerValue() {
        assertThatThrownBy(() -> new AppConfig(Map.of(ServerConfig.HTTP_PORT, "70000")))
            .isInstanceOf(ConfigException.class).hasMessageContaining(ServerConfig.HTTP_PORT);
    }

    @Test
    void shouldLetTheEnvironmentOverrideAServerKeyFromTheFile(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = dir.resolve("s.properties");
        Files.writeString(file, "http.port=9000\ntopic.partitions=3\n");
        AppConfig c = AppConfig.load(file, Map.of("STATESYNC_HTTP_PORT", "9100"), Map.of());
        assertThat(c.getInt(ServerConfig.HTTP_PORT)).isEqualTo(9100);
        assertThat(c.getInt(ServerConfig.TOPIC_PARTITIONS)).isEqualTo(3);
    }

    @Test
    void shouldHideServerSecretsAndShowUnknownKeysWhenDescribed() {
        AppConfig c = new AppConfig(Map.of(ServerConfig.AUTH_TOKENS, "s3cret:writer", "no.such.setting", "1"));
        assertThat(c.describe().toString()).doesNotContain("s3cret");
        assertThat(c.describe()).containsEntry(ServerConfig.AUTH_TOKENS, "[hidden]").containsEntry("no.such.setting", "1");
    }

    @Test
    void shouldDefineOnlyKeysTheServerReads() throws IOException {
        String sources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            sources = files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("ServerConfig.java"))
                .map(ServerConfigTest::read).collect(Collectors.joining("\n"));
        }
        Set<String> unread = new java.util.TreeSet<>();
        for (Field f : ServerConfig.class.getFields()) {
            if (f.getType() == String.class && !Pattern.compile("\\bServerConfig\\." + f.getName() + "\\b").matcher(sources).find()) {
                unread.add(f.getName());
            }
        }
        assertThat(unread).as("a key no server class reads belongs in the section of the module that does").isEmpty();
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
