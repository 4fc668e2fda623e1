package io.statesync.embedded.internal;

import io.statesync.embedded.ChildJvm;
import io.statesync.embedded.EmbeddedKafka;
import io.statesync.embedded.ExtraListener;
import io.statesync.embedded.FreePorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kafka.Kafka server.properties} in a child JVM on the current class path, after a one-time
 * {@code StorageTool format --standalone}. Data survives {@link #stop()}, {@link #start()} and new instances on the
 * same directory.
 */
public final class ChildProcessKafka implements EmbeddedKafka {
    private static final Logger log = LoggerFactory.getLogger(ChildProcessKafka.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);
    /** The child logs at INFO to its own file, whatever the parent's logging configuration says. */
    static final String CHILD_LOGBACK = "io/statesync/embedded/child-logback.xml";
    /** Extra JVM options for the broker JVM, space separated; the defaults suit a laptop-sized single node. */
    public static final String JVM_OPTIONS_PROPERTY = "statesync.kafka.jvm.options";

    private final Path dataDir;
    private final int requestedPort;
    private final Path logFile;
    private final ManagedChild broker;
    private final List<ExtraListener> extraListeners;
    private final Map<String, String> serverOverrides;
    private KafkaServerProperties server;

    public ChildProcessKafka(Path dataDir, int port, Path logFile, List<ExtraListener> extraListeners,
                             Map<String, String> serverOverrides) {
        this.extraListeners = List.copyOf(extraListeners);
        this.serverOverrides = Map.copyOf(serverOverrides);
        this.dataDir = dataDir.toAbsolutePath();
        this.requestedPort = port;
        this.logFile = logFile.toAbsolutePath();
        this.broker = new ManagedChild("Kafka broker", this.logFile, STOP_GRACE);
    }

    @Override
    public synchronized EmbeddedKafka start() {
        if (isRunning()) {
            return this;
        }
        long started = System.nanoTime();
        if (server == null) {
            server = KafkaServerProperties.forDataDir(dataDir, requestedPort, extraListeners).withOverrides(serverOverrides);
        }
        if (FreePorts.inUse(server.brokerPort())) {
            throw new IllegalStateException("Port " + server.brokerPort() + " on 127.0.0.1 is already in use; "
                    + "stop whatever listens there or choose another broker port");
        }
        Path config = dataDir.resolve(KafkaServerProperties.FILE_NAME);
        server.write(config);
        if (!server.isFormatted()) {
            format(config);
        }
        long pid = broker.start(brokerCommand(config), Map.of(),
                alive -> BrokerReadiness.await(bootstrapServers(), START_TIMEOUT, alive));
        log.info("Kafka broker (pid {}) ready at {} in {} ms, data in {}", pid, bootstrapServers(),
                (System.nanoTime() - started) / 1_000_000, dataDir);
        return this;
    }

    private void format(Path config) {
        String clusterId = Uuid.randomUuid().toString();
        ChildProcess.run("Kafka storage format", ChildJvm.command(jvmOptions("-Xmx256m"), ChildJvm.currentClassPath(),
                "kafka.tools.StorageTool", List.of("format", "--standalone", "-t", clusterId, "-c", config.toString())),
                logFile, Duration.ofSeconds(60));
    }

    private List<String> brokerCommand(Path config) {
        return ChildJvm.command(jvmOptions("-Xmx512m"), ChildJvm.currentClassPath(), "kafka.Kafka",
                List.of(config.toString()));
    }

    private static List<String> jvmOptions(String heap) {
        return ChildJvm.options(List.of(heap, "-XX:+UseSerialGC", "-Dlogback.configurationFile=" + CHILD_LOGBACK,
                "-Djava.awt.headless=true"), JVM_OPTIONS_PROPERTY);
    }

    @Override
    public void stop() {
        broker.stop();
    }

    @Override
    public boolean isRunning() {
        return broker.isRunning();
    }

    @Override
    public synchronized String bootstrapServers() {
        if (server == null) {
            throw new IllegalStateException("The broker has not been started");
        }
        return "127.0.0.1:" + server.brokerPort();
    }

    @Override
    public synchronized String bootstrapServers(String listenerName) {
        if (listenerName.equals("PLAINTEXT")) {
            return bootstrapServers();
        }
        if (server == null) {
            throw new IllegalStateException("The broker has not been started");
        }
        return "127.0.0.1:" + server.extraPort(listenerName);
    }

    @Override
    public OptionalLong pid() {
        return broker.pid();
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "ChildProcessKafka[" + dataDir + "]";
    }
}
