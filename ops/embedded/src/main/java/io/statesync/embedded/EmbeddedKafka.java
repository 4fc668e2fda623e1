package io.statesync.embedded;

import io.statesync.embedded.internal.ChildProcessKafka;
import io.statesync.embedded.internal.InProcessKafka;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A real single-node KRaft broker (combined broker and controller) for tests and for {@code statesync up}.
 *
 * <p>Two implementations: {@link #inProcess()} runs it inside this JVM on random ports with a temporary directory
 * (fast, for tests); {@link #childProcess(Path, int)} runs {@code kafka.Kafka} in a child JVM with a persistent data
 * directory and a fixed port, so it survives restarts and can be killed like a real broker.
 *
 * <p>Neither is started by its factory: call {@link #start()}.
 */
public interface EmbeddedKafka extends AutoCloseable {
    /** The broker port {@code statesync up} uses by default. */
    int DEFAULT_PORT = 9092;

    /** Where {@code statesync up} keeps the broker's data, relative to the working directory. */
    Path DEFAULT_DATA_DIR = Path.of("data", "kafka");

    /** A broker inside this JVM, on random ports, in a temporary directory deleted by {@link #close()}. */
    static EmbeddedKafka inProcess() {
        return new InProcessKafka();
    }

    /** A child-JVM broker on 127.0.0.1:9092 with its data in {@code ./data/kafka}, as {@code statesync up} runs it. */
    static EmbeddedKafka childProcess() {
        return childProcess(DEFAULT_DATA_DIR, DEFAULT_PORT);
    }

    /**
     * A broker in a child JVM that keeps its data in {@code dataDir}. Its output goes to
     * {@code <dataDir>/../logs/kafka.log}.
     *
     * @param port the client port on 127.0.0.1; 0 picks a free port, which is then kept across restarts
     */
    static EmbeddedKafka childProcess(Path dataDir, int port) {
        return childProcess(dataDir, port, dataDir.toAbsolutePath().resolveSibling("logs").resolve("kafka.log"));
    }

    /** As {@link #childProcess(Path, int)}, with the child's output appended to {@code logFile}. */
    static EmbeddedKafka childProcess(Path dataDir, int port, Path logFile) {
        return new ChildProcessKafka(dataDir, port, logFile, List.of(), Map.of());
    }

    /** As {@link #childProcess(Path, int, Path)}, with more listeners (e.g. SSL) next to PLAINTEXT; see {@link #bootstrapServers(String)}. */
    static EmbeddedKafka childProcess(Path dataDir, int port, Path logFile, List<ExtraListener> listeners) {
        return childProcess(dataDir, port, logFile, listeners, Map.of());
    }

    /**
     * As {@link #childProcess(Path, int, Path, List)}, with broker-wide settings written last (e.g. an authorizer and
     * {@code super.users}, so that a test can check ACLs on an authenticated listener).
     */
    static EmbeddedKafka childProcess(Path dataDir, int port, Path logFile, List<ExtraListener> listeners,
                                      Map<String, String> serverProperties) {
        return new ChildProcessKafka(dataDir, port, logFile, listeners, serverProperties);
    }

    /**
     * Starts the broker and returns once it accepts clients. Starting a stopped broker again keeps its data
     * (and, for a child process, its port), except for the Testcontainers broker of the JUnit extension, which comes
     * back empty. Does nothing if it is running.
     */
    EmbeddedKafka start();

    /** Stops the broker gracefully (forcibly after a grace period). Its data stays for the next {@link #start()}. */
    void stop();

    /** Whether the broker is running. */
    boolean isRunning();

    /** {@code host:port} for {@code bootstrap.servers}; valid once started. */
    String bootstrapServers();

    /** {@code host:port} of the named listener ({@code PLAINTEXT}, or an {@link ExtraListener}'s name); valid once started. */
    default String bootstrapServers(String listenerName) {
        if (listenerName.equals("PLAINTEXT")) {
            return bootstrapServers();
        }
        throw new IllegalArgumentException("This broker has no listener " + listenerName);
    }

    /** The broker's process id when it runs in a child process; empty when in-process or not running. */
    OptionalLong pid();

    /** Stops the broker and releases what it holds; an in-process broker also deletes its temporary directory. */
    @Override
    void close();
}
