package io.statesync.app.internal;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AppMeterRegistryTest {

    private static final Tags ROCKSDB = Tags.of("rocksdb.state.id", "statesync-state", "task.id", "0_0", "thread.id", "t-1");
    private static final Tags IN_MEMORY = Tags.of("in.memory.state.id", "statesync-revisions", "task.id", "0_0", "thread.id", "t-1");

    @Test
    void shouldExportTheSameStoreMetricOfTwoStoreTypesUnderTwoNames() {
        AppMeterRegistry registry = new AppMeterRegistry();
        List<String> refused = new ArrayList<>();
        registry.config().onMeterRegistrationFailed((id, reason) -> refused.add(reason));

        Gauge.builder("kafka.stream.state.put.all.latency.avg", () -> 1.0).tags(ROCKSDB).register(registry);
        Gauge.builder("kafka.stream.state.put.all.latency.avg", () -> 2.0).tags(IN_MEMORY).register(registry);
        FunctionCounter.builder("kafka.stream.state.put.total", this, o -> 3.0).tags(IN_MEMORY).register(registry);

        assertThat(refused).isEmpty();
        assertThat(registry.scrape())
            .contains("kafka_stream_state_rocksdb_put_all_latency_avg{rocksdb_state_id=\"statesync-state\",task_id=\"0_0\",thread_id=\"t-1\"} 1.0")
            .contains("kafka_stream_state_in_memory_put_all_latency_avg{in_memory_state_id=\"statesync-revisions\",task_id=\"0_0\",thread_id=\"t-1\"} 2.0")
            .contains("kafka_stream_state_in_memory_put_total{in_memory_state_id=\"statesync-revisions\",task_id=\"0_0\",thread_id=\"t-1\"} 3.0");
        // The ids stay Kafka's, which is what Micrometer's Kafka binder looks up.
        assertThat(registry.find("kafka.stream.state.put.all.latency.avg").meters()).hasSize(2);
    }

    @Test
    void shouldLeaveEveryOtherNameAlone() {
        Meter.Id thread = new Meter.Id("kafka.stream.thread.process.rate", Tags.of("thread.id", "t-1"), null, null, Meter.Type.GAUGE);
        Meter.Id cache = new Meter.Id("kafka.stream.record.cache.hit.ratio.avg", Tags.of("record.cache.id", "x"), null, null, Meter.Type.GAUGE);
        Meter.Id ours = new Meter.Id("statesync.resources", Tags.of("kind", "none"), null, null, Meter.Type.GAUGE);
        assertThat(AppMeterRegistry.withStoreType(thread)).isSameAs(thread);
        assertThat(AppMeterRegistry.withStoreType(cache)).isSameAs(cache);
        assertThat(AppMeterRegistry.withStoreType(ours)).isSameAs(ours);
    }

    @Test
    void shouldDropAStoreMeterFromTheScrapeWhenItIsRemovedByItsId() {
        AppMeterRegistry registry = new AppMeterRegistry();
        Gauge.builder("kafka.stream.state.put.latency.avg", () -> 1.0).tags(IN_MEMORY).register(registry);
        // What Micrometer's Kafka binder passes when Kafka drops the metric (a store closed): the id it registered.
        Meter.Id asBound = new Meter.Id("kafka.stream.state.put.latency.avg", IN_MEMORY, null, null, Meter.Type.OTHER);

        assertThat(registry.remove(asBound)).isNotNull();
        assertThat(registry.scrape()).doesNotContain("kafka_stream_state_in_memory_put_latency_avg");
    }
}
