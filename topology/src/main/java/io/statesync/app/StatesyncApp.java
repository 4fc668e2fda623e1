package io.statesync.app;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.rest.RestServer;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.TopicManager;
import io.statesync.topology.TopicNames;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One statesync instance: topics, kind-policy seeding, the Kafka Streams topology and the REST server.
 * Production and the embedded default run the same class; only the config differs.
 */
public final class StatesyncApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatesyncApp.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final AppConfig config;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ReconcileMetrics metrics = new ReconcileMetrics(registry);
    private KafkaStreams streams;
    private RestServer rest;
    private KafkaStreamsMetrics streamsMetrics;

    public StatesyncApp(AppConfig config) {
        this.config = config;
    }

    /** Creates or verifies topics, seeds kind policies, starts the REST server and then the streams. */
    public void start() {
        LOG.info("Starting statesync with {}", config.describe());
        TopicNames topics = new TopicNames(config.topicPrefix());
        try (Admin admin = Admin.create(adminProps())) {
            new TopicManager(admin, topics, config.getInt(AppConfig.TOPIC_PARTITIONS),
                config.getShort(AppConfig.TOPIC_REPLICATION_FACTOR)).ensureTopics(config.getBoolean(AppConfig.TOPIC_CREATE));
        }
        new KindPolicySeeder(config, topics).seedIfConfigured();
        bindJvmMetrics();
        rest = new RestServer(config, this, registry);
        rest.start();
        Topology topology = StatesyncTopology.build(config, metrics, Clock.systemUTC());
        var props = StatesyncTopology.streamsProperties(config, metrics);
        // Only the bound REST server knows the port when http.port is 0, so it alone says what other instances call.
        props.put(org.apache.kafka.streams.StreamsConfig.APPLICATION_SERVER_CONFIG, rest.advertisedServer());
        streams = new KafkaStreams(topology, props);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("Stream thread died; replacing it", e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
        streams.start();
        rest.streamsStarted(streams);
    }

    private void bindJvmMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
    }

    private Map<String, Object> adminProps() {
        Map<String, Object> p = config.clientProps(AppConfig.ADMIN_PREFIX);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        return p;
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

    /** Leaves the group on close, so a restart is ready in about a second instead of after the session timeout. */
    @Override
    public void close() {
        if (rest != null) {
            rest.stop();
        }
        if (streams != null) {
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(CLOSE_TIMEOUT));
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        registry.close();
        LOG.info("statesync stopped");
    }
}
