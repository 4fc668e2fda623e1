package io.statesync.app;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.app.internal.AppMeterRegistry;
import io.statesync.app.internal.BoundedRocksDbMemory;
import io.statesync.app.internal.MainConsumerDefaults;
import io.statesync.app.internal.ProducerDefaults;
import io.statesync.app.internal.RestoreConsumerDefaults;
import io.statesync.app.internal.SchemaRegistration;
import io.statesync.app.internal.StartupSteps;
import io.statesync.config.AppConfig;
import io.statesync.registry.SchemaRegistryClients;
import io.statesync.rest.RestServer;
import io.statesync.serde.SerdeConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.ClientRunning;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.OutputLimits;
import io.statesync.topology.TaskFailures;
import io.statesync.topology.TopicManager;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.rocksdb.RocksDB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One statesync instance: topics, kind-policy seeding, the Kafka Streams topology and the REST server.
 * Production and the embedded default run the same class; only the config differs.
 */
public final class StatesyncApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatesyncApp.class);
    /** How long a stop waits for the streams to close and leave the group; an orchestrator's grace period exceeds it. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final AppConfig config;
    private final PrometheusMeterRegistry registry = new AppMeterRegistry();
    private final ReconcileMetrics metrics;
    /** Failing stream tasks and threads, which /readyz reports (a Streams state of RUNNING does not show them). */
    private final TaskFailures taskFailures = new TaskFailures(java.time.Clock.systemUTC());
    /** Whether the streams run, for the work inside the topology that waits for it (the resource recount). */
    private final ClientRunning clientRunning = new ClientRunning();
    private KafkaStreams streams;
    private RestServer rest;
    private KafkaStreamsMetrics streamsMetrics;
    private SchemaRegistration schemas;

    public StatesyncApp(AppConfig config) {
        this.config = config;
        this.metrics = new ReconcileMetrics(registry, config.getInt(ServerConfig.METRICS_MAX_KINDS));
    }

    /**
     * Creates or verifies topics, seeds kind policies, starts the REST server and then the streams. Steps that do
     * not depend on each other run at the same time, each logged with its duration: on a cold JVM each costs
     * hundreds of milliseconds of class loading, so a restart's time is the longest chain, not the sum.
     */
    public void start() {
        // The JVM's own start (launcher, class loading, configuration, logging) is part of a restart's time too.
        LOG.info("Starting statesync, {} ms after the JVM started, with {}", ManagementFactory.getRuntimeMXBean().getUptime(),
            config.describe());
        TopicNames topics = new TopicNames(config.topicPrefix());
        try (StartupSteps steps = new StartupSteps()) {
            // Unpacks RocksDB's native library from its jar and links it, off the critical path; start() would do it first thing.
            var rocksDb = steps.async("load RocksDB", () -> RocksDB.loadLibrary());
            var topicsReady = steps.async("verify topics", () -> ensureTopics(topics));
            var topology = steps.async("build topology", () -> StatesyncTopology.build(config, metrics, Clock.systemUTC()));
            // Off the path to the streams' start, which the JVM's meters (GC listeners, class and thread counts) do not need.
            var jvmMetrics = steps.async("bind JVM metrics", () -> bindJvmMetrics(registry));
            rest = new RestServer(config, registry);
            registerSchemas(topics);
            var bound = bindRestAndCreateStreams(steps, topology);
            var restClients = steps.after(CompletableFuture.allOf(bound, topicsReady), "start REST clients", rest::startClients);
            var seeded = steps.after(topicsReady, "seed kind policies", () -> new KindPolicySeeder(config, topics).seedIfConfigured());
            StartupSteps.join(bound);
            // The streams read the policies as they start, and must not start on topics that failed their check.
            StartupSteps.join(seeded);
            StartupSteps.join(restClients);
            StartupSteps.join(jvmMetrics);
            StartupSteps.join(rocksDb);
            steps.run("start streams", streams::start);
            rest.streamsStarted(streams);
            LOG.info("statesync started in {} ms; the streams are now {}", steps.elapsedMillis(), streams.state());
        }
    }

    /**
     * Registers the topics' value schemas in the background, retried while the registry is down, and holds readiness
     * until that succeeds. With {@code auto.register.schemas=false} the operator registers them, and statesync leaves
     * the subjects alone.
     */
    private void registerSchemas(TopicNames topics) {
        Map<String, Object> serdeConfig = TopologySerdes.serdeConfig(config);
        if (!Boolean.parseBoolean(String.valueOf(serdeConfig.getOrDefault(SerdeConfig.AUTO_REGISTER_SCHEMAS, "true")))) {
            LOG.info("auto.register.schemas=false: the topics' value schemas are left to the operator");
            return;
        }
        schemas = new SchemaRegistration(SchemaRegistryClients.forConfig(serdeConfig), topics);
        rest.addReadinessCheck(schemas::problem);
        rest.addReadinessCheck(taskFailures::problem);
        long livenessAfter = config.getLong(ServerConfig.LIVENESS_TASK_FAILURES_MS);
        rest.addLivenessCheck(() -> taskFailures.livenessProblem(livenessAfter));
        schemas.start();
    }

    /**
     * Binds the REST port and creates the streams, which advertise that port. Neither touches a topic (the local stores
     * are opened by start()), so neither waits for the topic check; and when the configuration names the port, the two
     * run side by side (each is a noticeable share of class loading and set-up on a restart).
     */
    private CompletableFuture<Void> bindRestAndCreateStreams(StartupSteps steps, CompletableFuture<Topology> topology) {
        String advertised = rest.advertisedServerFromConfig();
        if (advertised == null) {
            steps.run("bind REST", rest::bind);
            streams = steps.run("create streams", () -> newStreams(StartupSteps.join(topology), rest.advertisedServer()));
            return CompletableFuture.completedFuture(null);
        }
        var bound = steps.async("bind REST", rest::bind);
        streams = steps.run("create streams", () -> newStreams(StartupSteps.join(topology), advertised));
        return bound;
    }

    private void ensureTopics(TopicNames topics) {
        try (Admin admin = Admin.create(config.adminProps())) {
            new TopicManager(admin, topics, config.getInt(ServerConfig.TOPIC_PARTITIONS),
                config.getShort(AppConfig.TOPIC_REPLICATION_FACTOR)).withMaxMessageBytes(OutputLimits.maxRecordBytes(config))
                .ensureTopics(config.getBoolean(ServerConfig.TOPIC_CREATE));
        }
    }

    private KafkaStreams newStreams(Topology topology, String advertisedServer) {
        KafkaStreams created = new KafkaStreams(topology, streamsProperties(advertisedServer));
        clientRunning.follow(() -> created.state() == KafkaStreams.State.RUNNING);
        created.setUncaughtExceptionHandler(e -> {
            LOG.error("Stream thread died; replacing it", e);
            taskFailures.threadDied(Thread.currentThread().getName(), e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streamsMetrics = new KafkaStreamsMetrics(created);
        streamsMetrics.bindTo(registry);
        return created;
    }

    /** The topology's properties plus what only the instance knows: its address, its identity, its memory budget, restores, rejoins, retries. */
    private Properties streamsProperties(String advertisedServer) {
        Properties props = StatesyncTopology.streamsProperties(config, metrics, taskFailures);
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertisedServer);
        props.put(ClientRunning.CONFIG_KEY, clientRunning);
        String instanceId = config.getString(ServerConfig.GROUP_INSTANCE_ID);
        if (!instanceId.isEmpty()) {
            // Streams suffixes it with the thread index, so each stream thread is its own static member.
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), instanceId);
        }
        long rocksDbBytes = config.getLong(ServerConfig.ROCKSDB_MEMORY_BYTES);
        if (rocksDbBytes > 0 && !props.containsKey(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)) {
            props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
            props.put(BoundedRocksDbMemory.MEMORY_BYTES_CONFIG, rocksDbBytes);
        }
        RestoreConsumerDefaults.applyTo(props);
        MainConsumerDefaults.applyTo(props);
        ProducerDefaults.applyTo(props);
        return props;
    }

    /** The JVM and process meters every instance exports; the dashboards' tests bind the same ones. */
    public static void bindJvmMetrics(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
    }

    public AppConfig config() {
        return config;
    }

    public KafkaStreams streams() {
        return streams;
    }

    public ReconcileMetrics metrics() {
        return metrics;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The REST server, for tests that inspect its routes. */
    public RestServer restServer() {
        return rest;
    }

    /** The REST port actually bound (differs from http.port when that is 0). */
    public int httpPort() {
        return rest.port();
    }

    public boolean isRunning() {
        return streams != null && streams.state() == KafkaStreams.State.RUNNING;
    }

    /**
     * A dynamic member leaves the group on close, so that a restart is not held in REBALANCING until the broker
     * expires the old member (session timeout, 45 s). A static member stays: its restart within the session timeout
     * resumes its tasks without a rebalance.
     */
    @Override
    public void close() {
        if (rest != null) {
            rest.stop();
        }
        if (schemas != null) {
            schemas.close();
        }
        if (streams != null) {
            var membership = config.getString(ServerConfig.GROUP_INSTANCE_ID).isEmpty()
                ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP;
            streams.close(CloseOptions.groupMembershipOperation(membership).withTimeout(CLOSE_TIMEOUT));
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        registry.close();
        LOG.info("statesync stopped");
    }
}
