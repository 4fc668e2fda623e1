package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.statesync.avro.Correction;
import io.statesync.avro.KindPolicy;
import io.statesync.config.AppConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** statesync_queue_depth and the tags of statesync_reconcile_duration_seconds, kept by the real topology. */
class QueueMetricsTopologyTest {

    @TempDir
    Path stateDir;

    private static double depth(TopologyFixture f, String queue) {
        Gauge g = f.metrics.registry().find("statesync_queue_depth").tag("queue", queue).gauge();
        return g == null ? -1 : g.value();
    }

    private static long reconciles(TopologyFixture f, String result) {
        Timer t = f.metrics.registry().find("statesync_reconcile_duration_seconds").tags("kind", "WebApp", "result", result)
            .timer();
        return t == null ? 0 : t.count();
    }

    @Test
    void shouldCountTheKeysWhoseTimersAreDueWhenTheTimerRuns() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of())) {
            f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setCorrectionDeadlineMs(1_000L).build());
            for (String name : new String[] {"a", "b", "c"}) {
                f.putDesired(TopologyFixture.desiredState("WebApp/default/" + name, Map.of("replicas", 1L)));
            }
            f.advance(Duration.ofMillis(500));
            assertThat(depth(f, "timer")).as("no deadline has passed").isZero();

            f.advance(Duration.ofMillis(600));
            assertThat(depth(f, "timer")).as("three deadlines passed").isEqualTo(3.0);

            f.advance(Duration.ofMillis(100));
            assertThat(depth(f, "timer")).as("the last run handled them").isZero();
        }
    }

    @Test
    void shouldCountEveryDueKeyWhenMoreAreDueThanOneTimerRunVisits() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of(AppConfig.RESYNC_MAX_KEYS, 2, AppConfig.RESYNC_MAX_WRITES, 2))) {
            f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setCorrectionDeadlineMs(1_000L).build());
            for (String name : new String[] {"a", "b", "c", "d", "e"}) {
                f.putDesired(TopologyFixture.desiredState("WebApp/default/" + name, Map.of("replicas", 1L)));
            }
            f.advance(Duration.ofMillis(1_100));
            assertThat(depth(f, "timer")).as("five deadlines passed, two visited per run").isEqualTo(5.0);

            f.advance(Duration.ofMillis(100));
            assertThat(depth(f, "timer")).as("the first run visited two").isEqualTo(3.0);
        }
    }

    @Test
    void shouldCountTheKeysOfACoalescedBatch() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of(AppConfig.RECONCILE_COALESCE_ENABLED, true,
                AppConfig.RECONCILE_BATCH_INTERVAL_MS, 20L))) {
            for (String name : new String[] {"a", "b"}) {
                f.putDesired(TopologyFixture.desiredState("WebApp/default/" + name, Map.of("replicas", 1L)));
            }
            f.advance(Duration.ofMillis(20));
            assertThat(depth(f, "batch")).isEqualTo(2.0);
        }
    }

    @Test
    void shouldTagReconcileDurationsByKindAndResult() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of())) {
            f.putDesired(TopologyFixture.desiredState("WebApp/default/a", Map.of("replicas", 1L)));
            Correction c = f.drainCorrections().get(0);
            f.advance(Duration.ofMillis(10));
            f.observe("WebApp/default/a", c.getUid(), 1, Map.of("replicas", 1L), c.getCommandId());

            assertThat(reconciles(f, "correction")).isEqualTo(1);
            assertThat(reconciles(f, "converged")).isEqualTo(1);
        }
    }
}
