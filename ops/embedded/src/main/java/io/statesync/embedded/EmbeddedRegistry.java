package io.statesync.embedded;

import io.statesync.embedded.internal.ManagedChild;
import io.statesync.embedded.internal.RegistryAdmin;
import io.statesync.embedded.internal.RegistryJarLocator;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apicurio Registry (built by {@code ops/registry}) in a child JVM, serving the Confluent Schema Registry API at
 * {@link #url()}. Schemas are kept in an H2 file under the data directory, so they survive restarts. The global
 * compatibility is set to BACKWARD on every start, because Apicurio's default is NONE.
 */
public final class EmbeddedRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedRegistry.class);

    /** The registry port {@code statesync up} uses by default. */
    public static final int DEFAULT_PORT = 8081;
    /** The path of the Confluent-compatible API under the registry's root. */
    public static final String CCOMPAT_PATH = "/apis/ccompat/v7";
    /** Extra JVM options for the registry JVM, space separated. */
    public static final String JVM_OPTIONS_PROPERTY = "statesync.registry.jvm.options";
    private static final String QUARKUS_MAIN = "io.quarkus.bootstrap.runner.QuarkusEntryPoint";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);

    private final Path dataDir;
    private final int requestedPort;
    private final Path logFile;
    private final ManagedChild registry;
    private int port;

    /**
     * @param dataDir where the H2 database lives ({@code <dataDir>/registry.mv.db})
     * @param port the port on 127.0.0.1; 0 picks a free port, which is then kept across restarts
     * @param logFile where the registry's output is appended
     */
    public EmbeddedRegistry(Path dataDir, int port, Path logFile) {
        this.dataDir = dataDir.toAbsolutePath();
        this.requestedPort = port;
        this.logFile = logFile.toAbsolutePath();
        this.registry = new ManagedChild("Schema registry", this.logFile, STOP_GRACE);
    }

    /** As the constructor, with the output in {@code <dataDir>/../logs/registry.log}. */
    public EmbeddedRegistry(Path dataDir, int port) {
        this(dataDir, port, dataDir.toAbsolutePath().resolveSibling("logs").resolve("registry.log"));
    }

    /** Starts the registry and returns once it answers and has BACKWARD compatibility. No-op if running. */
    public synchronized EmbeddedRegistry start() {
        if (isRunning()) {
            return this;
        }
        long started = System.nanoTime();
        Path jar = RegistryJarLocator.locate();
        if (port == 0) {
            port = FreePorts.resolve(requestedPort);
        }
        if (FreePorts.inUse(port)) {
            throw new IllegalStateException("Port " + port + " on 127.0.0.1 is already in use; "
                    + "stop whatever listens there or choose another registry port");
        }
        RegistryAdmin admin = new RegistryAdmin(url());
        long pid = registry.start(command(jar), environment(), alive -> {
            admin.awaitReady(START_TIMEOUT, alive);
            admin.setGlobalCompatibility("BACKWARD");
        });
        log.info("Schema registry (pid {}) ready at {} in {} ms, data in {}", pid, url(),
                (System.nanoTime() - started) / 1_000_000, dataDir);
        return this;
    }

    private List<String> command(Path jar) {
        List<String> options = ChildJvm.options(List.of("-Xmx160m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
                "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                // Apicurio opens 20 connections up front; one embedded user needs far fewer.
                "-Dquarkus.datasource.jdbc.initial-size=2", "-Dquarkus.datasource.jdbc.min-size=2"),
                JVM_OPTIONS_PROPERTY);
        return ChildJvm.command(options, jar.toString(), QUARKUS_MAIN, List.of());
    }

    private Map<String, String> environment() {
        return Map.of("REGISTRY_DATASOURCE_URL", "jdbc:h2:file:" + dataDir.resolve("registry").toString()
                .replace(File.separatorChar, '/'));
    }

    /** Stops the registry gracefully (forcibly after a grace period); its schemas stay on disk. */
    public void stop() {
        registry.stop();
    }

    public boolean isRunning() {
        return registry.isRunning();
    }

    /** The Confluent-compatible base URL, {@code http://127.0.0.1:<port>/apis/ccompat/v7}; valid once started. */
    public synchronized String url() {
        if (port == 0) {
            throw new IllegalStateException("The registry has not been started");
        }
        return "http://127.0.0.1:" + port + CCOMPAT_PATH;
    }

    /** The registry's process id; empty when it is not running. */
    public OptionalLong pid() {
        return registry.pid();
    }

    @Override
    public void close() {
        stop();
    }
}
