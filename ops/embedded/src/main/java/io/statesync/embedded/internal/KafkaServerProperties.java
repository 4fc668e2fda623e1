package io.statesync.embedded.internal;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import io.statesync.embedded.ExtraListener;
import io.statesync.embedded.FreePorts;

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
    /** Extra listeners and their ports, in the order given. */
    private final Map<ExtraListener, Integer> extra;
    private final Map<String, String> overrides;

    KafkaServerProperties(int brokerPort, int controllerPort, Path logDir) {
        this(brokerPort, controllerPort, logDir, Map.of(), Map.of());
    }

    private KafkaServerProperties(int brokerPort, int controllerPort, Path logDir, Map<ExtraListener, Integer> extra,
                                  Map<String, String> overrides) {
        this.brokerPort = brokerPort;
        this.controllerPort = controllerPort;
        this.logDir = logDir;
        this.extra = extra;
        this.overrides = overrides;
    }

    /** The same ports and directory; {@code settings} are written after everything else, so they win. */
    KafkaServerProperties withOverrides(Map<String, String> settings) {
        return new KafkaServerProperties(brokerPort, controllerPort, logDir, extra, Map.copyOf(settings));
    }

    /** Keeps the ports of an earlier run in {@code dataDir} unless {@code requestedPort} names a fixed one. */
    static KafkaServerProperties forDataDir(Path dataDir, int requestedPort) {
        return forDataDir(dataDir, requestedPort, List.of());
    }

    /** As {@link #forDataDir(Path, int)}; an extra listener keeps its port from an earlier run too. */
    static KafkaServerProperties forDataDir(Path dataDir, int requestedPort, List<ExtraListener> listeners) {
        Optional<Properties> previous = load(dataDir.resolve(FILE_NAME));
        int brokerPort = requestedPort != 0 ? requestedPort
                : previous.map(p -> portOf(p, "PLAINTEXT")).orElseGet(FreePorts::pick);
        int controllerPort = previous.map(p -> portOf(p, "CONTROLLER")).orElseGet(FreePorts::pick);
        Map<ExtraListener, Integer> extra = new LinkedHashMap<>();
        for (ExtraListener l : listeners) {
            extra.put(l, previous.filter(p -> hasListener(p, l.name())).map(p -> portOf(p, l.name())).orElseGet(FreePorts::pick));
        }
        return new KafkaServerProperties(brokerPort, controllerPort, dataDir.resolve("kraft-combined-logs"), extra, Map.of());
    }

    int extraPort(String name) {
        return extra.entrySet().stream().filter(e -> e.getKey().name().equals(name)).map(Map.Entry::getValue).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("This broker has no listener " + name));
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
        StringBuilder listeners = new StringBuilder("PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        StringBuilder advertised = new StringBuilder("PLAINTEXT://127.0.0.1:" + brokerPort);
        StringBuilder protocols = new StringBuilder("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        extra.forEach((l, port) -> {
            listeners.append(',').append(l.name()).append("://127.0.0.1:").append(port);
            advertised.append(',').append(l.name()).append("://127.0.0.1:").append(port);
            protocols.append(',').append(l.name()).append(':').append(l.securityProtocol());
            String prefix = "listener.name." + l.name().toLowerCase(Locale.ROOT) + ".";
            l.settings().forEach((k, v) -> p.setProperty(prefix + k, v));
        });
        p.setProperty(LISTENERS, listeners.toString());
        p.setProperty("advertised.listeners", advertised.toString());
        p.setProperty("listener.security.protocol.map", protocols.toString());
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
        overrides.forEach(p::setProperty);
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

    private static boolean hasListener(Properties p, String name) {
        return java.util.Arrays.stream(p.getProperty(LISTENERS, "").split(",")).anyMatch(l -> l.startsWith(name + "://"));
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
