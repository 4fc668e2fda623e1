package io.statesync.rest.internal;

import java.util.Map;
import java.util.function.Supplier;

import io.statesync.avro.KindPolicy;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.rest.ApiError;
import io.statesync.topology.PolicyCatalog;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** The kind policies of this instance's global kinds store, as the REST API and its dry runs read them. */
public final class KindsStoreQuery {

    private final Supplier<KafkaStreams> streams;
    private final TopologySerdes serdes;
    private final TopicNames topics;
    private final io.statesync.reconciler.schema.StructuralSchema.Limits limits;

    public KindsStoreQuery(Supplier<KafkaStreams> streams, TopologySerdes serdes, TopicNames topics,
                           io.statesync.reconciler.schema.StructuralSchema.Limits limits) {
        this.limits = limits;
        this.streams = streams;
        this.serdes = serdes;
        this.topics = topics;
    }

    /** The global kinds store; 503 while the streams are not started or the store is not queryable. */
    public ReadOnlyKeyValueStore<String, byte[]> store() {
        KafkaStreams s = streams.get();
        if (s == null) {
            throw ApiError.unavailable("the streams are not started", 1);
        }
        try {
            return s.store(StoreQueryParameters.fromNameAndType(StatesyncTopology.KINDS_STORE,
                QueryableStoreTypes.<String, byte[]>keyValueStore()));
        } catch (InvalidStateStoreException e) {
            throw ApiError.unavailable("the kinds store is not queryable yet: " + e.getMessage(), 1);
        }
    }

    /** Every kind policy in the store that decodes, by kind. */
    public Map<String, KindPolicy> kindPolicies() {
        return KindsApi.decodable(store(), serdes.kindPolicy().deserializer(), topics.kinds());
    }

    /** A dry run refuses as the write would: 503 while the kind's stored policy does not decode. */
    public ReconcilePolicy policyFor(String kind) {
        try {
            return new PolicyCatalog(store(), serdes.kindPolicy().deserializer(), topics.kinds(), limits).forAdmission(kind);
        } catch (PolicyCatalog.PolicyUnavailableException e) {
            throw ApiError.unavailable(e.getMessage(), 1);
        }
    }
}
