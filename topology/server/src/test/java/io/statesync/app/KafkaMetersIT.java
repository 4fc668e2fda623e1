package io.statesync.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.app.internal.AppMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every Kafka meter of a running instance reaches the Prometheus scrape. The topology has RocksDB stores (state,
 * timers) and in-memory ones (revision counter, kinds), whose metrics share names but not tag keys; a Prometheus
 * registry refuses the second kind and drops it with one WARN, so this test fails on any refused registration.
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
                assertThat(refused).isEmpty();
            }
        } finally {
            everySecond.shutdownNow();
        }
    }

    /** Runs the binder's periodic refresh at once and every 200 ms instead of every minute. */
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
            return super.scheduleAtFixedRate(command, 0, 200, TimeUnit.MILLISECONDS);
        }
    }
}
