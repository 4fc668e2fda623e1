package io.statesync.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.connect.storage.Converter;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The plugin directory built by the assembly is complete: with only what a Connect worker provides (connect-api,
 * kafka-clients, SLF4J) as parent, its jars load the connectors and the converter, and the converter round-trips a
 * record through the project's serde.
 */
class ConnectPluginPackagingIT {

    private static final Path PLUGIN_DIR = Path.of("target", "statesync-connect-plugin");

    @Test
    void shouldHoldEveryJarThePluginsNeedButNotTheWorkersOwn() throws IOException {
        List<String> jars = jarNames();

        assertThat(jars).anyMatch(j -> j.startsWith("statesync-connectors-"))
            .anyMatch(j -> j.startsWith("statesync-serde-"))
            .anyMatch(j -> j.startsWith("statesync-schemas-"))
            .anyMatch(j -> j.startsWith("avro-"))
            .anyMatch(j -> j.startsWith("jackson-databind-"))
            .noneMatch(j -> j.startsWith("kafka-clients-") || j.startsWith("connect-api-") || j.startsWith("kafka-streams-")
                || j.startsWith("statesync-engine-") || j.startsWith("statesync-server-"));
        assertThat(Path.of("target", "statesync-connect-plugin.zip")).exists();
    }

    @Test
    void shouldLoadAndRunTheConverterFromThePluginDirectoryAlone() throws Exception {
        try (URLClassLoader worker = new URLClassLoader(new URL[] {location(Converter.class), location(Consumer.class),
            location(LoggerFactory.class)}, ClassLoader.getPlatformClassLoader());
             URLClassLoader plugin = new URLClassLoader(pluginJars(), worker)) {
            plugin.loadClass("io.statesync.connect.HttpCorrectionSinkConnector");
            plugin.loadClass("io.statesync.connect.HttpObservedSourceConnector");
            Object converter = plugin.loadClass("io.statesync.connect.AvroValueConverter").getConstructor().newInstance();
            Class<?> converterType = worker.loadClass(Converter.class.getName());
            converterType.getMethod("configure", Map.class, boolean.class)
                .invoke(converter, Map.of("schema.registry.url", "mock://packaging"), false);
            Object nothing = converterType.getMethod("fromConnectData", String.class,
                worker.loadClass("org.apache.kafka.connect.data.Schema"), Object.class)
                .invoke(converter, "statesync.observed", null, null);
            assertThat(nothing).isNull();
        }
    }

    private static List<String> jarNames() throws IOException {
        try (Stream<Path> files = Files.list(PLUGIN_DIR)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar")).toList();
        }
    }

    private static URL[] pluginJars() throws IOException {
        List<URL> urls = new ArrayList<>();
        for (String jar : jarNames()) {
            urls.add(PLUGIN_DIR.resolve(jar).toUri().toURL());
        }
        return urls.toArray(URL[]::new);
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }
}
