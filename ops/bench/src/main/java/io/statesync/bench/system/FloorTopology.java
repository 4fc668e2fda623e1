package io.statesync.bench.system;

import java.time.Instant;

import io.statesync.avro.DesiredState;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.avro.internal.ReconcileState;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The floor: no reconcile logic at all, only the records statesync's contract requires per input. Both inputs are
 * decoded (validation needs it), both land in one per-key {@link ReconcileState} store (cached, logged, like
 * statesync's), and every desired write, being a new generation, publishes one Avro {@link Resource}. No status,
 * planning, corrections, events, timers or revisions. What statesync can reach is bounded by this.
 */
public final class FloorTopology {

    static final String STORE = "floor-state";

    private FloorTopology() {
    }

    public static Topology build(TopicNames topics, TopologySerdes serdes) {
        Topology t = new Topology();
        var bytes = Serdes.ByteArray().deserializer();
        t.addSource("desired", Serdes.String().deserializer(), bytes, topics.desired());
        t.addSource("observed", Serdes.String().deserializer(), bytes, topics.observed());
        t.addProcessor("floor-desired", () -> new Step(serdes, topics.desired(), true), "desired");
        t.addProcessor("floor-observed", () -> new Step(serdes, topics.observed(), false), "observed");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(),
            serdes.reconcileState()).withCachingEnabled(), "floor-desired", "floor-observed");
        t.addSink("resources", topics.resources(), Serdes.String().serializer(), serdes.resource().serializer(), "floor-desired");
        return t;
    }

    private static final class Step implements Processor<String, byte[], String, Resource> {
        private final Deserializer<DesiredState> desired;
        private final Deserializer<ObservedState> observed;
        private final boolean isDesired;
        private final String topicOf;
        private ProcessorContext<String, Resource> context;
        private KeyValueStore<String, ReconcileState> store;

        Step(TopologySerdes serdes, String topic, boolean isDesired) {
            this.desired = serdes.desired().deserializer();
            this.observed = serdes.observed().deserializer();
            this.isDesired = isDesired;
            this.topicOf = topic;
        }

        @Override
        public void init(ProcessorContext<String, Resource> context) {
            this.context = context;
            this.store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, byte[]> record) {
            ReconcileState st = store.get(record.key());
            if (st == null) {
                st = ReconcileState.newBuilder().build();
            }
            if (isDesired) {
                DesiredState d = desired.deserialize(topicOf, record.headers(), record.value());
                Resource r = Resource.newBuilder().setMetadata(ObjectMeta.newBuilder().setKind(d.getKind())
                        .setNamespace(d.getNamespace()).setName(d.getName()).setUid(record.key())
                        .setCreationTimestamp(Instant.ofEpochMilli(record.timestamp())).build())
                    .setSpec(d.getSpec()).setStatus(ResourceStatus.newBuilder().setSyncStatus(SyncStatus.Progressing).build())
                    .build();
                st.setResource(r);
                context.forward(new Record<>(record.key(), r, record.timestamp()));
            } else {
                st.setObserved(observed.deserialize(topicOf, record.headers(), record.value()));
            }
            store.put(record.key(), st);
        }
    }
}
