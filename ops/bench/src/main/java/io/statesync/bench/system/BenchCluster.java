package io.statesync.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import io.statesync.config.AppConfig;
import io.statesync.embedded.EmbeddedKafka;
import io.statesync.embedded.EmbeddedRegistry;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicManager;
import io.statesync.topology.TopicNames;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * One broker and one registry for the whole benchmark process, so that every ratio is taken on the same broker.
 * Each run gets its own topic prefix, application id and state directory, so runs never share state or offsets.
 */
public final class BenchCluster implements AutoCloseable {

    public static final int PARTITIONS = 6;

    private final Path dir;
    private final EmbeddedKafka kafka;
    private final EmbeddedRegistry registry;
    private final AtomicInteger runs = new AtomicInteger();

    public BenchCluster() throws IOException {
        this.dir = Files.createTempDirectory("statesync-bench");
        this.kafka = EmbeddedKafka.inProcess();
        this.registry = new EmbeddedRegistry(dir.resolve("registry"), 0, dir.resolve("registry.log"));
    }

    /** On a failure the broker is stopped again: its threads would otherwise keep the JVM (and its heap) alive. */
    public BenchCluster start() {
        kafka.start();
        try {
            registry.start();
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        return this;
    }

    public String bootstrap() {
        return kafka.bootstrapServers();
    }

    public Path dir() {
        return dir;
    }

    /** A fresh run: unique prefix and application id, topics created with statesync's own TopicManager. */
    public AppConfig newRun(String name, Map<String, Object> overrides) {
        String id = "b" + runs.incrementAndGet() + "-" + name;
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, bootstrap());
        p.put(AppConfig.SCHEMA_REGISTRY_URL, registry.url());
        p.put(AppConfig.APPLICATION_ID, id);
        p.put(AppConfig.TOPIC_PREFIX, id + ".");
        p.put(ServerConfig.TOPIC_PARTITIONS, PARTITIONS);
        p.put(AppConfig.NUM_STREAM_THREADS, 2);
        p.put(AppConfig.STATE_DIR, dir.resolve("state").resolve(id).toString());
        p.put(ServerConfig.HTTP_PORT, 0);
        p.putAll(overrides);
        AppConfig config = new AppConfig(p);
        try (Admin admin = admin()) {
            new TopicManager(admin, new TopicNames(config.topicPrefix()), PARTITIONS, (short) 1).ensureTopics(true);
        }
        return config;
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    /** Deletes the state directories and the registry's data too: a full-size run leaves gigabytes behind. */
    @Override
    public void close() {
        registry.close();
        kafka.close();
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
