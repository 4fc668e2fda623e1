package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.avro.Condition;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/** statesync_resources{kind, sync_status, health}: what the task's store holds, kept by the real topology. */
class ResourceGaugeTest extends TopologyTestBase {

    private double gauge(String kind, String sync, String health) {
        Gauge g = f.metrics.registry().find("statesync_resources").tags("kind", kind, "sync_status", sync, "health", health).gauge();
        return g == null ? 0 : g.value();
    }

    private Resource create(String name) {
        f.putDesired(TopologyFixture.desiredState("WebApp/default/" + name, Map.of("replicas", 1L)));
        return last(f.drainResources());
    }

    private void report(Resource r, String ready) {
        f.advance(Duration.ofMillis(10));
        String key = "WebApp/default/" + r.getMetadata().getName();
        f.observed.pipeInput(new TestRecord<>(key, ObservedState.newBuilder().setKind("WebApp").setNamespace("default")
            .setName(r.getMetadata().getName()).setUid(r.getMetadata().getUid()).setObservedGeneration(1)
            .setState(TopologyFixture.spec(Map.of("replicas", 1L)))
            .setConditions(List.of(Condition.newBuilder().setType("Ready").setStatus(ready).build()))
            .setObservedAt(f.now()).build(), f.now()));
    }

    @Test
    void shouldCountResourcesBySyncStatusAndHealthAsTheyAre() {
        Resource a = create("a");
        Resource b = create("b");
        assertThat(gauge("WebApp", "Progressing", "Missing")).isEqualTo(2);

        report(a, "True");
        report(b, "False");

        assertThat(gauge("WebApp", "Progressing", "Missing")).isZero();
        assertThat(gauge("WebApp", "Synced", "Healthy")).isEqualTo(1);
        assertThat(gauge("WebApp", "Synced", "Degraded")).isEqualTo(1);

        report(b, "True");
        f.deleteDesired("WebApp/default/a");

        assertThat(gauge("WebApp", "Synced", "Degraded")).isZero();
        assertThat(gauge("WebApp", "Synced", "Healthy")).as("a is Deleting now, b healthy").isEqualTo(1);
        assertThat(gauge("WebApp", "Deleting", "Healthy")).isEqualTo(1);
    }

    @Test
    void shouldReplaceATasksCountsWhenRecountedAndDropThemWhenItLeaves() {
        ReconcileMetrics m = new ReconcileMetrics(new SimpleMeterRegistry());
        String synced = ReconcileMetrics.series("WebApp", "Synced", "Healthy");
        m.resourceMoved("0_0", null, synced);
        m.resourceMoved("0_1", null, synced);

        m.recounted("0_0", Map.of(synced, 5L));
        assertThat(m.registry().find("statesync_resources").tags("kind", "WebApp", "health", "Healthy").gauge().value()).isEqualTo(6);

        m.taskClosed("0_1");
        assertThat(m.registry().find("statesync_resources").tags("kind", "WebApp", "health", "Healthy").gauge().value()).isEqualTo(5);
    }
}
