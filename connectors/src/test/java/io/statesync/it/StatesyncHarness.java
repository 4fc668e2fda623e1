package io.statesync.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import io.statesync.app.StatesyncApp;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.schemas.Values;
import io.statesync.serde.AvroSerdes;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicNames;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;

/**
 * A statesync instance on the shared embedded cluster under its own topic prefix, with a writer for desired state
 * and a watcher that keeps the latest {@code Resource} per key.
 */
final class StatesyncHarness implements AutoCloseable {

    final String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    final TopicNames topics = new TopicNames(prefix);
    final String bootstrap;
    final String registryUrl;
    final Map<String, Resource> resources = new ConcurrentHashMap<>();
    /** Every key whose lastCorrection was ever a retry (attempt > 1), as seen on the resources topic. */
    final Map<String, Integer> maxAttempt = new ConcurrentHashMap<>();
    private final StatesyncApp app;
    private final KafkaProducer<String, DesiredState> desired;
    private final AtomicBoolean watching = new AtomicBoolean(true);
    private final Thread watcher;

    StatesyncHarness(String bootstrap, String registryUrl, Path stateDir) {
        this.bootstrap = bootstrap;
        this.registryUrl = registryUrl;
        Map<String, Object> props = new HashMap<>();
        props.put(AppConfig.BOOTSTRAP_SERVERS, bootstrap);
        props.put(AppConfig.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(AppConfig.TOPIC_PREFIX, prefix);
        props.put(ServerConfig.TOPIC_PARTITIONS, 3);
        props.put(AppConfig.APPLICATION_ID, prefix + "app");
        props.put(AppConfig.STATE_DIR, stateDir.toString());
        props.put(ServerConfig.HTTP_PORT, 0);
        props.put(AppConfig.RESYNC_INTERVAL_MS, 200L);
        // One stream thread: two threads registering the store's changelog subject at once can race in the registry.
        props.put(AppConfig.NUM_STREAM_THREADS, 1);
        app = new StatesyncApp(new AppConfig(props));
        app.start();
        desired = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.LINGER_MS_CONFIG, 5), new StringSerializer(),
            AvroSerdes.specific(DesiredState.class, serdeConfig(), false).serializer());
        watcher = new Thread(this::watch, "it-resource-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    Map<String, Object> serdeConfig() {
        return Map.of(AppConfig.SCHEMA_REGISTRY_URL, registryUrl);
    }

    boolean isRunning() {
        return app.isRunning();
    }

    void putDesired(String kind, String namespace, String name, Map<String, Object> spec) {
        DesiredState d = DesiredState.newBuilder().setKind(kind).setNamespace(namespace).setName(name)
            .setSpec(Values.fromJava(spec)).build();
        desired.send(new ProducerRecord<>(topics.desired(), kind + "/" + namespace + "/" + name, d));
    }

    /**
     * Shortens the kind's correction deadline. An absent report (a failed CREATE, a resource deleted behind
     * statesync's back) carries no ack to the reconciler, so its retry waits for the deadline (30 s by default).
     */
    void putShortDeadline(String kind, long deadlineMs) throws Exception {
        KindPolicy policy = KindPolicy.newBuilder().setKind(kind).setCorrectionDeadlineMs(deadlineMs).build();
        try (KafkaProducer<String, KindPolicy> producer = new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(),
            AvroSerdes.specific(KindPolicy.class, serdeConfig(), false).serializer())) {
            producer.send(new ProducerRecord<>(topics.kinds(), kind, policy)).get();
        }
        // The policy reaches the reconciler through a global table; wait until the REST API serves it from there.
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.httpPort() + "/api/v1/kinds/"
            + kind)).build();
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
            .until(() -> http.send(get, HttpResponse.BodyHandlers.ofString()).body().contains(
                String.valueOf(deadlineMs)));
    }

    void flush() {
        desired.flush();
    }

    long count(Predicate<Resource> which) {
        return resources.values().stream().filter(which).count();
    }

    static boolean synced(Resource r, long generation) {
        return r.getStatus().getSyncStatus() == SyncStatus.Synced
            && r.getStatus().getObservedGeneration() >= generation;
    }

    private void watch() {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG, prefix + "watcher", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, Resource> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
            AvroSerdes.specific(Resource.class, serdeConfig(), false).deserializer())) {
            consumer.subscribe(List.of(topics.resources()));
            while (watching.get()) {
                for (ConsumerRecord<String, Resource> r : consumer.poll(Duration.ofMillis(100))) {
                    remember(r.key(), r.value());
                }
            }
        }
    }

    private void remember(String key, Resource r) {
        if (r == null) {
            resources.remove(key);
            return;
        }
        resources.put(key, r);
        if (r.getStatus().getLastCorrection() != null) {
            maxAttempt.merge(key, r.getStatus().getLastCorrection().getAttempt(), Math::max);
        }
    }

    @Override
    public void close() {
        watching.set(false);
        try {
            watcher.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        desired.close();
        app.close();
    }
}
