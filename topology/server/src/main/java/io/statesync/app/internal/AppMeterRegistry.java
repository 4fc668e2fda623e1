package io.statesync.app.internal;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The registry behind /metrics: Prometheus, with the Kafka Streams store meters named by store type.
 *
 * <p>Kafka Streams tags a store's metrics with {@code <type>-state-id} ({@code rocksdb-state-id},
 * {@code in-memory-state-id}, ...) under one metric name per operation, so a topology with RocksDB and in-memory
 * stores yields meters that share a name but not their tag keys. Prometheus needs one set of label names per metric
 * name, so the registry refused whichever store type came second (with a single WARN, then silently). Here each store
 * meter takes its store type into its name: {@code kafka_stream_state_rocksdb_put_latency_avg{rocksdb_state_id=...}}
 * and {@code kafka_stream_state_in_memory_put_latency_avg{in_memory_state_id=...}}. Renaming keeps the number of tags,
 * which Micrometer's Kafka binder compares to tell a metric it already bound from a new one.
 */
public final class AppMeterRegistry extends PrometheusMeterRegistry {

    static final String STORE_METER_PREFIX = "kafka.stream.state.";
    /** Micrometer's Kafka binder turns the dashes of Kafka's tag keys into dots. */
    private static final String STORE_ID_SUFFIX = ".state.id";
    private static final MeterFilter STORE_TYPE_NAMES = new MeterFilter() {
        @Override
        public Meter.Id map(Meter.Id id) {
            return withStoreType(id);
        }
    };

    public AppMeterRegistry() {
        super(PrometheusConfig.DEFAULT);
        config().meterFilter(STORE_TYPE_NAMES);
    }

    /**
     * Micrometer's Kafka binder removes the meter of a metric Kafka dropped (a store closed when its task moved to
     * another instance) by the id it registered it with, before this registry renamed it; without the second lookup
     * those meters would stay behind, reading NaN.
     */
    @Override
    public Meter remove(Meter.Id id) {
        Meter removed = super.remove(id);
        return removed != null ? removed : super.remove(withStoreType(id));
    }

    /** {@code kafka.stream.state.<op>} tagged {@code <type>.state.id} becomes {@code kafka.stream.state.<type>.<op>}. */
    static Meter.Id withStoreType(Meter.Id id) {
        String name = id.getName();
        if (!name.startsWith(STORE_METER_PREFIX)) {
            return id;
        }
        for (Tag tag : id.getTagsAsIterable()) {
            String key = tag.getKey();
            if (key.endsWith(STORE_ID_SUFFIX) && key.length() > STORE_ID_SUFFIX.length()) {
                String typePrefix = STORE_METER_PREFIX + key.substring(0, key.length() - STORE_ID_SUFFIX.length()) + ".";
                return name.startsWith(typePrefix) ? id : id.withName(typePrefix + name.substring(STORE_METER_PREFIX.length()));
            }
        }
        return id;
    }
}
