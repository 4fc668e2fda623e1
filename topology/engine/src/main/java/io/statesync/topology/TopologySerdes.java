package io.statesync.topology;

import java.util.HashMap;
import java.util.Map;

import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.registry.SchemaRegistryClient;
import io.statesync.registry.SchemaRegistryClients;
import io.statesync.serde.AvroSerdes;
import io.statesync.topology.internal.ReconcileStateSerde;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/** The value serdes of every topic and store, configured once from {@link AppConfig}. */
public final class TopologySerdes {

    private final Map<String, Object> serdeConfig;
    private final SchemaRegistryClient registry;
    private final Serde<DesiredState> desired;
    private final Serde<ObservedState> observed;
    private final Serde<Resource> resource;
    private final Serde<Correction> correction;
    private final Serde<ReconcileEvent> event;
    private final Serde<KindPolicy> kindPolicy;
    private final Serde<ReconcileState> reconcileState;

    public TopologySerdes(AppConfig config) {
        this.serdeConfig = serdeConfig(config);
        // One client for every serde, so that the seven record types share one connection pool and one id cache.
        this.registry = SchemaRegistryClients.forConfig(serdeConfig);
        this.desired = specific(DesiredState.class);
        this.observed = specific(ObservedState.class);
        this.resource = specific(Resource.class);
        this.correction = specific(Correction.class);
        this.event = specific(ReconcileEvent.class);
        this.kindPolicy = specific(KindPolicy.class);
        this.reconcileState = new ReconcileStateSerde(specific(ReconcileState.class));
    }

    /** The registry URL plus every {@code schema.registry.*}, {@code basic.auth.*}, {@code bearer.auth.*} and {@code auto.register.*} setting. */
    public static Map<String, Object> serdeConfig(AppConfig config) {
        Map<String, Object> out = new HashMap<>();
        config.originals().forEach((k, v) -> {
            if (k.startsWith("schema.registry.") || k.startsWith("basic.auth.") || k.startsWith("bearer.auth.")
                || k.startsWith("auto.register.")) {
                out.put(k, v);
            }
        });
        out.put(AppConfig.SCHEMA_REGISTRY_URL, config.getString(AppConfig.SCHEMA_REGISTRY_URL));
        return out;
    }

    private <T extends SpecificRecord> Serde<T> specific(Class<T> type) {
        return AvroSerdes.specific(type, registry, serdeConfig, false);
    }

    public Map<String, Object> config() { return serdeConfig; }
    public Serde<DesiredState> desired() { return desired; }
    public Serde<ObservedState> observed() { return observed; }
    public Serde<Resource> resource() { return resource; }
    public Serde<Correction> correction() { return correction; }
    public Serde<ReconcileEvent> event() { return event; }
    public Serde<KindPolicy> kindPolicy() { return kindPolicy; }
    public Serde<ReconcileState> reconcileState() { return reconcileState; }
}
