package io.statesync.embedded;

import java.nio.file.Path;

/**
 * The broker and the schema registry of {@code statesync up}, both child JVMs that keep their state under one data
 * directory:
 *
 * <pre>
 * &lt;dataDir&gt;/kafka/              broker data and its server.properties
 * &lt;dataDir&gt;/registry/           the registry's H2 database
 * &lt;dataDir&gt;/logs/kafka.log      broker output
 * &lt;dataDir&gt;/logs/registry.log   registry output
 * </pre>
 *
 * Closing it stops both; starting it again on the same directory brings all topics and schemas back.
 */
public final class EmbeddedRuntime implements AutoCloseable {
    /** {@code ./data}, relative to the working directory, as {@code statesync up} uses it. */
    public static final Path DEFAULT_DATA_DIR = Path.of("data");

    private final Path dataDir;
    private final EmbeddedKafka kafka;
    private final EmbeddedRegistry registry;

    /**
     * @param kafkaPort the broker's client port on 127.0.0.1 (0 picks a free one)
     * @param registryPort the registry's port on 127.0.0.1 (0 picks a free one)
     */
    public EmbeddedRuntime(Path dataDir, int kafkaPort, int registryPort) {
        this.dataDir = dataDir.toAbsolutePath();
        Path logs = this.dataDir.resolve("logs");
        this.kafka = EmbeddedKafka.childProcess(this.dataDir.resolve("kafka"), kafkaPort, logs.resolve("kafka.log"));
        this.registry = new EmbeddedRegistry(this.dataDir.resolve("registry"), registryPort,
                logs.resolve("registry.log"));
    }

    /** {@code ./data}, the broker on 9092 and the registry on 8081. */
    public static EmbeddedRuntime withDefaults() {
        return new EmbeddedRuntime(DEFAULT_DATA_DIR, EmbeddedKafka.DEFAULT_PORT, EmbeddedRegistry.DEFAULT_PORT);
    }

    /** Starts the broker, then the registry; if the registry fails, the broker is stopped again. */
    public EmbeddedRuntime start() {
        kafka.start();
        try {
            registry.start();
        } catch (RuntimeException e) {
            kafka.stop();
            throw e;
        }
        return this;
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The registry's Confluent-compatible base URL, for {@code schema.registry.url}. */
    public String registryUrl() {
        return registry.url();
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logDir() {
        return dataDir.resolve("logs");
    }

    public EmbeddedKafka kafka() {
        return kafka;
    }

    public EmbeddedRegistry registry() {
        return registry;
    }

    /** Stops the registry, then the broker. Safe to call more than once. */
    @Override
    public void close() {
        try {
            registry.stop();
        } finally {
            kafka.stop();
        }
    }
}
