package io.statesync.embedded.internal;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * The {@code server.properties} of a single-node combined KRaft broker. The controller port is recorded in the
 * metadata log at format time, so it is kept in the file and reused on every later start.
 */
public final class KafkaServerProperties {
    static final String FILE_NAME = "server.properties";
    private static final String LISTENERS = "listeners";

    private final int brokerPort;
    private final int controllerPort;
    private final Path logDir;

    KafkaServerProperties(int brokerPort, int controllerPort, Path logDir) {
        this.brokerPort = brokerPort;
        this.controllerPort = controllerPort;
        this.logDir = logDir;
    }

    /** Keeps the ports of an earlier run in {@code dataDir} unless {@code requestedPort} names a fixed one. */
    static KafkaServerProperties forDataDir(Path dataDir, int requestedPort) {
        Optional<Properties> previous = load(dataDir.resolve(FILE_NAME));
        int brokerPort = requestedPort != 0 ? requestedPort
                : previous.map(p -> portOf(p, "PLAINTEXT")).orElseGet(FreePorts::pick);
        int controllerPort = previous.map(p -> portOf(p, "CONTROLLER")).orElseGet(FreePorts::pick);
        return new KafkaServerProperties(brokerPort, controllerPort, dataDir.resolve("kraft-combined-logs"));
    }

    int brokerPort() {
        return brokerPort;
    }

    Path logDir() {
        return logDir;
    }

    /** Whether {@code kafka-storage format} has already run on the log directory. */
    boolean isFormatted() {
        return Files.exists(logDir.resolve("meta.properties"));
    }

    Properties toProperties() {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty(LISTENERS, "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.setProperty("log.dirs", logDir.toAbsolutePath().toString());
        p.setProperty("num.partitions", "1");
        // One node: every internal topic must fit on it.
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        return p;
    }

    void write(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                toProperties().store(out, "Written by statesync-embedded on every start; edits are overwritten.");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    private static Optional<Properties> load(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Properties p = new Properties();
            p.load(in);
            return Optional.of(p);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    /** The port of listener {@code name} in {@code listeners=NAME://host:port,...}. */
    static int portOf(Properties p, String name) {
        for (String listener : p.getProperty(LISTENERS, "").split(",")) {
            if (listener.startsWith(name + "://")) {
                return Integer.parseInt(listener.substring(listener.lastIndexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("No " + name + " listener in " + p.getProperty(LISTENERS));
    }
}
