package io.statesync.embedded.junit;

import io.statesync.embedded.EmbeddedKafka;
import io.statesync.embedded.EmbeddedRegistry;
import io.statesync.embedded.internal.ContainerKafka;
import io.statesync.embedded.internal.Directories;
import io.statesync.embedded.internal.DockerProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One broker and one registry, closed by JUnit when the root context (the whole test JVM) ends. */
@SuppressWarnings("deprecation") // CloseableResource is what JUnit 5.13 closes without extra configuration.
final class SharedCluster implements EmbeddedCluster, ExtensionContext.Store.CloseableResource {
    private static final Logger log = LoggerFactory.getLogger(SharedCluster.class);

    private final EmbeddedKafka kafka;
    private final String brokerKind;
    private final EmbeddedRegistry registry;
    private final Path registryDir;

    private SharedCluster(EmbeddedKafka kafka, String brokerKind, EmbeddedRegistry registry, Path registryDir) {
        this.kafka = kafka;
        this.brokerKind = brokerKind;
        this.registry = registry;
        this.registryDir = registryDir;
    }

    static SharedCluster start(String brokerMode) {
        boolean docker = switch (brokerMode) {
            case "in-process" -> false;
            case "testcontainers", "docker" -> true;
            case "auto" -> DockerProbe.dockerAvailable();
            default -> throw new IllegalArgumentException("Unknown broker mode '" + brokerMode
                    + "'; use auto, testcontainers or in-process");
        };
        String kind = docker ? "testcontainers" : "in-process";
        log.info("Embedded cluster: {} broker ({}), Apicurio registry in a child JVM", kind,
                docker ? "a Docker engine is reachable" : "no Docker engine, or in-process was asked for");
        EmbeddedKafka kafka = docker ? new ContainerKafka() : EmbeddedKafka.inProcess();
        kafka.start();
        try {
            Path registryDir = Files.createTempDirectory("statesync-registry");
            EmbeddedRegistry registry = new EmbeddedRegistry(registryDir, 0, logDir().resolve("registry.log")).start();
            return new SharedCluster(kafka, kind, registry, registryDir);
        } catch (IOException e) {
            kafka.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
    }

    /** Next to the module's build output when there is one, so a failed run leaves the registry log to read. */
    private static Path logDir() throws IOException {
        Path target = Path.of("target");
        return Files.isDirectory(target) ? target.resolve("embedded-cluster").toAbsolutePath()
                : Files.createTempDirectory("statesync-logs");
    }

    @Override
    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    @Override
    public String registryUrl() {
        return registry.url();
    }

    @Override
    public String brokerKind() {
        return brokerKind;
    }

    @Override
    public void close() {
        EmbeddedClusterExtension.forget(this);
        try {
            registry.close();
        } finally {
            kafka.close();
            Directories.deleteRecursively(registryDir);
        }
    }
}
