package io.statesync.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.app.internal.AppMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologyFixture;
import io.statesync.topology.TopologySerdes;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every Kafka meter of a running instance reaches the Prometheus scrape. The topology has RocksDB stores (state,
 * timers) and in-memory ones (revision counter, kinds), whose metrics share names but not tag keys; a Prometheus
 * registry refuses the second kind and drops it with one WARN, so this test fails on any refused registration, and on
 * any meter Micrometer's Kafka binder registers twice (which it does when the registry changes a meter's id).
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KafkaMetersIT {

    @TempDir
    Path stateDir;

    @Test
    void shouldRegisterTheMetersOfEveryStoreTypeWithoutARefusal(EmbeddedCluster cluster) throws Exception {
        AppConfig config = ReconcilePipelineIT.itConfig(cluster, stateDir, "meters", 2);
        List<String> refused = new CopyOnWriteArrayList<>();
        ScheduledThreadPoolExecutor everySecond = new EagerRefresh();
        // Micrometer logs the first refusal or double registration at WARN and later ones at DEBUG.
        Logger micrometer = (Logger) LoggerFactory.getLogger("io.micrometer");
        Level level = micrometer.getLevel();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        micrometer.setLevel(Level.DEBUG);
        micrometer.addAppender(logged);
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.registry().config().onMeterRegistrationFailed((id, reason) -> refused.add("app: " + reason));
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(app::isRunning);
            // The app's binder looks for new Kafka metrics (the stores' appear once the tasks are assigned) once a
            // minute; this binder, on a registry built as the app's is, looks every 200 ms.
            PrometheusMeterRegistry probe = new AppMeterRegistry();
            probe.config().onMeterRegistrationFailed((id, reason) -> refused.add("probe: " + reason));
            try (KafkaStreamsMetrics binder = new KafkaStreamsMetrics(app.streams(), List.of(), everySecond)) {
                binder.bindTo(probe);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(probe.scrape())
                    .contains("kafka_stream_state_rocksdb_put_all_latency_avg{", "kafka_stream_state_in_memory_put_all_latency_avg{"));
                String scrape = probe.scrape();
                assertThat(scrape).contains("rocksdb_state_id=\"statesync-state\"", "in_memory_state_id=\"statesync-revisions\"");
                // A desired write makes the stream threads' producer write new topics, so Kafka adds metrics and the
                // next refreshes bind again: every meter bound before must be found, not registered a second time.
                TopicNames topics = new TopicNames(config.topicPrefix());
                TopologySerdes serdes = new TopologySerdes(config);
                try (var producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()),
                    new StringSerializer(), serdes.desired().serializer())) {
                    producer.send(new ProducerRecord<>(topics.desired(), ReconcilePipelineIT.KEY,
                        TopologyFixture.desiredState(ReconcilePipelineIT.KEY, ReconcilePipelineIT.V1))).get();
                }
                int before = probe.getMeters().size();
                await().atMost(Duration.ofSeconds(30)).until(() -> probe.getMeters().size() > before);
                Thread.sleep(1_000);
                assertThat(refused).isEmpty();
                assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
                    .noneMatch(m -> m.contains("registration has failed") || m.contains("has been already registered"));
            }
        } finally {
            everySecond.shutdownNow();
            micrometer.detachAppender(logged);
            micrometer.setLevel(level);
        }
    }

    /**
     * Runs the binder's periodic refresh every 200 ms instead of every minute; not at once, so that the first refresh
     * does not race the pass bindTo makes itself.
     */
    private static final class EagerRefresh extends ScheduledThreadPoolExecutor {
        EagerRefresh() {
            super(1, r -> {
                Thread t = new Thread(r, "kafka-meters-it-refresh");
                t.setDaemon(true);
                return t;
            });
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
            return super.scheduleAtFixedRate(command, 200, 200, TimeUnit.MILLISECONDS);
        }
    }
}
