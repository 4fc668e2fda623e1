package io.statesync.app.internal;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The registry behind /metrics: Prometheus, with the Kafka Streams store metrics named by store type.
 *
 * <p>Kafka Streams tags a store's metrics with {@code <type>-state-id} ({@code rocksdb-state-id},
 * {@code in-memory-state-id}, ...) under one metric name per operation, so a topology with RocksDB and in-memory
 * stores yields meters that share a name but not their tag keys. Prometheus needs one set of label names per metric
 * name, so the registry refused whichever store type came second (one WARN, then silently). Here each store metric
 * takes its store type into its Prometheus name: {@code kafka_stream_state_rocksdb_put_latency_avg{rocksdb_state_id=...}}
 * and {@code kafka_stream_state_in_memory_put_latency_avg{in_memory_state_id=...}}.
 *
 * <p>Only the exported name changes, not the meter's id: Micrometer's Kafka binder compares the ids in the registry
 * with the ones it would register to tell a metric it already bound from a new one, and removes a meter by that id
 * when Kafka drops the metric (a store closed when its task moved away). A {@code MeterFilter} that renamed the id
 * would make it bind every store meter again on each refresh (a WARN about double registration) and never remove them.
 */
public final class AppMeterRegistry extends PrometheusMeterRegistry {

    static final String STORE_METER_PREFIX = "kafka.stream.state.";
    /** Micrometer's Kafka binder turns the dashes of Kafka's tag keys into dots. */
    private static final String STORE_ID_SUFFIX = ".state.id";

    public AppMeterRegistry() {
        super(PrometheusConfig.DEFAULT);
    }

    @Override
    protected String getConventionName(Meter.Id id) {
        return super.getConventionName(withStoreType(id));
    }

    /** {@code kafka.stream.state.<op>} tagged {@code <type>.state.id} is named {@code kafka.stream.state.<type>.<op>}. */
    static Meter.Id withStoreType(Meter.Id id) {
        String name = id.getName();
        if (!name.startsWith(STORE_METER_PREFIX)) {
            return id;
        }
        for (Tag tag : id.getTagsAsIterable()) {
            String key = tag.getKey();
            if (key.endsWith(STORE_ID_SUFFIX) && key.length() > STORE_ID_SUFFIX.length()) {
                String type = key.substring(0, key.length() - STORE_ID_SUFFIX.length());
                return id.withName(STORE_METER_PREFIX + type + "." + name.substring(STORE_METER_PREFIX.length()));
            }
        }
        return id;
    }
}
