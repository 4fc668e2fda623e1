package io.statesync.app;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.statesync.server.ServerConfig;
import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologyFixture;
import io.statesync.topology.TopologySerdes;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.embedded.ChildJvm;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.schemas.Values;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reference scenario end to end on a real broker and registry, with the app killed in the middle: it runs as a
 * child JVM ({@code statesync run}), which is killed with SIGKILL (no close, no flush, no transaction abort) while a
 * correction is outstanding and the agent's acknowledgement of it is under way; a new process on the same state
 * directory must finish the scenario without issuing any correction twice.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class ReconcilePipelineIT {

    static final String KEY = "WebApp/default/test-webapp";
    static final Map<String, Object> V1 = Map.of("image", "nginx:1.20", "replicas", 2L, "port", 80L, "env", Map.of("ENV", "production"));
    static final Map<String, Object> V2 = Map.of("image", "nginx:1.21", "replicas", 5L, "port", 8080L, "env", Map.of("ENV", "production"));

    /** A killed instance's partitions move to the new one after this session timeout rather than the default 45 s. */
    private static final Map<String, Object> FAST_FAILOVER = Map.of("streams.session.timeout.ms", 6_000,
        "streams.heartbeat.interval.ms", 1_500);

    @TempDir
    Path stateDir;

    @TempDir
    Path logDir;

    @Test
    void shouldConvergeReferenceScenarioAcrossAnAppKilledWithCorrectionsInFlightWithoutDuplicateCorrections(
            EmbeddedCluster cluster) throws Exception {
        AppConfig config = itConfig(cluster, stateDir, "it", 3);
        TopicNames topics = new TopicNames(config.topicPrefix());
        TopologySerdes serdes = new TopologySerdes(config);
        Map<String, Resource> latest = new ConcurrentHashMap<>();

        // The app first: it creates the topics, which the clients below would otherwise auto-create wrongly.
        try (ChildStatesync first = ChildStatesync.start(config, FAST_FAILOVER, logDir.resolve("first.log"));
             InTestAgent agent = new InTestAgent(cluster.bootstrapServers(), serdes, topics);
             var producer = desiredProducer(cluster.bootstrapServers(), serdes);
             var resources = new ResourceTail(cluster.bootstrapServers(), serdes, topics, latest)) {
            producer.send(new ProducerRecord<>(topics.desired(), KEY, desired(V1))).get();
            awaitSynced(latest, 1);

            // The agent stops acting, so the correction for generation 2 is issued and committed but not applied.
            agent.hold();
            producer.send(new ProducerRecord<>(topics.desired(), KEY, desired(V2))).get();
            awaitResource(latest, "Progressing with the correction for generation 2 outstanding",
                r -> correctionOutstanding(r, 2));
            // The agent applies and acknowledges it while the instance dies: the ack reaches the topic around the
            // kill, so it is read by a transaction that is cut off or only by the next instance.
            agent.release();
            first.kill();
            assertThat(latest.get(KEY).getStatus().getSyncStatus()).as("killed before generation 2 converged")
                .isEqualTo(SyncStatus.Progressing);

            try (ChildStatesync second = ChildStatesync.start(config, FAST_FAILOVER, logDir.resolve("second.log"))) {
                awaitSynced(latest, 2);
                Resource r = latest.get(KEY);
                agent.report(KEY, r.getMetadata().getUid(), 2, Values.fromJava(Map.of("image", "nginx:1.21", "replicas", 3L,
                    "port", 8080L, "env", Map.of("ENV", "production"))), null);
                await().atMost(Duration.ofSeconds(30)).until(() -> agent.seen.stream().anyMatch(c -> c.getReason() == Reason.Drift));
                await().atMost(Duration.ofSeconds(30)).until(() -> Values.toJava(agent.world.get(KEY)).equals(V2));
                assertThat(second.isAlive()).as("the second instance kept running").isTrue();
            } catch (AssertionError | ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "\nThe instance started after the kill: "
                    + ChildStatesync.logTail(logDir.resolve("second.log")), e);
            }

            List<Correction> update = agent.seen.stream().filter(c -> c.getGeneration() == 2 && c.getReason() == Reason.SpecChanged).toList();
            assertThat(update).as("the correction in flight at the kill was not issued again").hasSize(1);
            assertThat(update.get(0).getPatch()).extracting(op -> String.join(".", op.getPath()))
                .containsExactlyInAnyOrder("image", "replicas", "port");
            // The product's promise: one correction per (uid, generation, attempt), whatever its reason.
            Map<String, List<String>> byIdentity = agent.seen.stream().collect(Collectors.groupingBy(
                c -> c.getUid() + "/" + c.getGeneration() + "/" + c.getAttempt(), TreeMap::new,
                Collectors.mapping(c -> c.getReason() + " " + c.getCommandId(), Collectors.toList())));
            assertThat(byIdentity).as("corrections per (uid, generation, attempt)")
                .allSatisfy((identity, corrections) -> assertThat(corrections).as(identity).hasSize(1));
        }
    }

    private static boolean correctionOutstanding(Resource r, long generation) {
        return r.getStatus().getSyncStatus() == SyncStatus.Progressing
            && r.getStatus().getLastCorrection() != null && r.getStatus().getLastCorrection().getGeneration() == generation;
    }

    /** An instance of its own on the shared cluster: unique topics and application id, ephemeral REST port. */
    static AppConfig itConfig(EmbeddedCluster cluster, Path stateDir, String name, int partitions) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> props = new HashMap<>();
        props.put(AppConfig.BOOTSTRAP_SERVERS, cluster.bootstrapServers());
        props.put(AppConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        props.put(AppConfig.TOPIC_PREFIX, name + "-" + suffix + ".");
        props.put(AppConfig.APPLICATION_ID, "statesync-" + name + "-" + suffix);
        props.put(AppConfig.STATE_DIR, stateDir.toString());
        props.put(ServerConfig.HTTP_PORT, 0);
        props.put(ServerConfig.TOPIC_PARTITIONS, partitions);
        props.put(AppConfig.NUM_STREAM_THREADS, 1);
        return new AppConfig(props);
    }

    private static void awaitSynced(Map<String, Resource> latest, long generation) {
        awaitResource(latest, "Synced at generation " + generation, r -> r.getStatus().getSyncStatus() == SyncStatus.Synced
            && r.getStatus().getObservedGeneration() == generation);
    }

    /** Waits up to 60 s for the latest Resource of KEY to match; a timeout names the status it was left in. */
    private static void awaitResource(Map<String, Resource> latest, String what, Predicate<Resource> condition) {
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> latest.get(KEY) != null && condition.test(latest.get(KEY)));
        } catch (ConditionTimeoutException e) {
            Resource r = latest.get(KEY);
            throw new AssertionError(KEY + " not " + what + " within 60 s; its last status: "
                + (r == null ? "no Resource yet" : r.getStatus()), e);
        }
    }

    private static DesiredState desired(Map<String, Object> spec) {
        return TopologyFixture.desiredState(KEY, spec);
    }

    private static KafkaProducer<String, DesiredState> desiredProducer(String bootstrap, TopologySerdes serdes) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(), serdes.desired().serializer());
    }

    /** Follows statesync.resources (read_committed) into a map of the latest Resource per key. */
    static final class ResourceTail implements AutoCloseable {
        private final KafkaConsumer<String, Resource> consumer;
        private final Thread thread;
        private volatile boolean running = true;

        ResourceTail(String bootstrap, TopologySerdes serdes, TopicNames topics, Map<String, Resource> latest) {
            consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "tail-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), serdes.resource().deserializer());
            consumer.subscribe(List.of(topics.resources()));
            thread = new Thread(() -> {
                while (running) {
                    consumer.poll(Duration.ofMillis(100)).forEach(r -> {
                        if (r.value() == null) {
                            latest.remove(r.key());
                        } else {
                            latest.put(r.key(), r.value());
                        }
                    });
                }
                consumer.close();
            }, "resource-tail");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(10_000);
        }
    }

    /**
     * {@code statesync run -D key=value ...} in a child JVM on this test's class path, so that it can be killed
     * without any of its code running. It runs under the embedded module's parent watchdog (there is no public way to
     * start a child JVM yet), so it never outlives the test JVM.
     */
    static final class ChildStatesync implements AutoCloseable {
        private final Process process;
        private final Path log;

        private ChildStatesync(Process process, Path log) {
            this.process = process;
            this.log = log;
        }

        /** Starts the instance and returns once its /readyz answers 200 (bounded). */
        static ChildStatesync start(AppConfig config, Map<String, Object> overrides, Path log) throws Exception {
            int httpPort = freePort();
            Map<String, Object> props = new TreeMap<>();
            config.originals().forEach(props::put);
            props.putAll(overrides);
            props.put(ServerConfig.HTTP_PORT, httpPort);
            List<String> args = new ArrayList<>(List.of("run"));
            props.forEach((k, v) -> args.addAll(List.of("-D", k + "=" + v)));
            List<String> command = ChildJvm.command(List.of("-Xmx256m", "-XX:+UseSerialGC"), ChildJvm.currentClassPath(),
                "io.statesync.app.StatesyncMain", args);
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            ChildStatesync child = new ChildStatesync(process, log);
            try {
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
                HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/readyz"))
                    .timeout(Duration.ofSeconds(2)).build();
                // A child that exits (e.g. on a config error) fails at once instead of running out the wait.
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> !process.isAlive() || ready(http, readyz));
                if (!process.isAlive()) {
                    throw new IllegalStateException("statesync child exited with " + process.exitValue() + "; " + child.logTail());
                }
                return child;
            } catch (RuntimeException | Error e) {
                child.kill();
                throw new IllegalStateException("statesync child not ready: " + e.getMessage() + "\n" + child.logTail(), e);
            }
        }

        private static boolean ready(HttpClient http, HttpRequest readyz) throws InterruptedException {
            try {
                return http.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            }
        }

        /** SIGKILL, and wait until the process is gone. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("statesync child " + process.pid() + " still alive 30 s after SIGKILL");
            }
        }

        boolean isAlive() {
            return process.isAlive();
        }

        String logTail() {
            return logTail(log);
        }

        static String logTail(Path log) {
            try {
                List<String> lines = Files.readAllLines(log);
                return "its log " + log + " ends with:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
            } catch (IOException e) {
                return "its log " + log + " is unreadable: " + e;
            }
        }

        /** SIGTERM (the instance closes itself), then SIGKILL after 30 s. */
        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    kill();
                }
            }
        }

        private static int freePort() throws IOException {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            }
        }
    }
}
