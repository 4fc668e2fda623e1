package io.statesync.bench.system;

import java.time.Instant;
import java.util.UUID;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.schemas.Values;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import io.statesync.topology.store.ReconcileStateStore;
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
 *
 * <p>{@link #answering} is the latency suite's floor: the least a reconciler can do and still answer that suite's
 * writes as the contract says. A desired write also bumps the generation and emits a {@link Correction} carrying the
 * spec; an observation is compared with the spec once ({@link Values#sameTree}), publishes the Resource's new status,
 * and emits a correction when it drifts at the current generation. Still no merge, patch, conditions, retries,
 * deadlines, timers, events, revisions or coalescing: if this cannot hold a rate on a machine, no statesync can.
 */
public final class FloorTopology {

    static final String STORE = "floor-state";
    static final String RESOURCES = "resources";
    static final String CORRECTIONS = "corrections";
    static final String EVENTS = "events";

    private FloorTopology() {
    }

    /** Suite 1's floor. */
    public static Topology build(TopicNames topics, TopologySerdes serdes) {
        return topology(topics, serdes, false);
    }

    /** Suite 2's floor. */
    static Topology answering(TopicNames topics, TopologySerdes serdes) {
        return topology(topics, serdes, true);
    }

    /** Suite 2's contract floor: every record and field the contract asks for, with the least logic (see {@link ContractFloorStep}). */
    static Topology contract(AppConfig config) {
        TopicNames topics = new TopicNames(config.topicPrefix());
        TopologySerdes serdes = new TopologySerdes(config);
        Topology t = withSources(topics);
        var keys = Serdes.String();
        // One processor for both inputs, so that the task's resourceVersion counter is one counter.
        t.addProcessor("contract-floor", () -> new ContractFloorStep(serdes, topics), "desired", "observed");
        // statesync's own state store (decoded, written back once per commit), so that the two differ only in logic.
        t.addStateStore(ReconcileStateStore.builder(STORE, serdes, config), "contract-floor");
        t.addSink(RESOURCES, topics.resources(), keys.serializer(), serdes.resource().serializer(), "contract-floor");
        t.addSink(CORRECTIONS, topics.corrections(), keys.serializer(), serdes.correction().serializer(), "contract-floor");
        t.addSink(EVENTS, topics.events(), keys.serializer(), serdes.event().serializer(), "contract-floor");
        return t;
    }

    /** Both inputs as String keys and undecoded values: every floor decodes them itself, as statesync does. */
    private static Topology withSources(TopicNames topics) {
        Topology t = new Topology();
        var bytes = Serdes.ByteArray().deserializer();
        var keys = Serdes.String().deserializer();
        t.addSource("desired", keys, bytes, topics.desired());
        t.addSource("observed", keys, bytes, topics.observed());
        return t;
    }

    private static Topology topology(TopicNames topics, TopologySerdes serdes, boolean answers) {
        Topology t = withSources(topics);
        var keys = Serdes.String();
        t.addProcessor("floor-desired", () -> new Step(serdes, topics, true, answers), "desired");
        t.addProcessor("floor-observed", () -> new Step(serdes, topics, false, answers), "observed");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), keys,
            serdes.reconcileState()).withCachingEnabled(), "floor-desired", "floor-observed");
        String[] publishers = answers ? new String[] {"floor-desired", "floor-observed"} : new String[] {"floor-desired"};
        t.addSink(RESOURCES, topics.resources(), keys.serializer(), serdes.resource().serializer(), publishers);
        if (answers) {
            t.addSink(CORRECTIONS, topics.corrections(), keys.serializer(), serdes.correction().serializer(), publishers);
        }
        return t;
    }

    private static final class Step implements Processor<String, byte[], String, Object> {
        private final Deserializer<DesiredState> desired;
        private final Deserializer<ObservedState> observed;
        private final TopicNames topics;
        private final boolean isDesired;
        private final boolean answers;
        private ProcessorContext<String, Object> context;
        private KeyValueStore<String, ReconcileState> store;

        Step(TopologySerdes serdes, TopicNames topics, boolean isDesired, boolean answers) {
            this.desired = serdes.desired().deserializer();
            this.observed = serdes.observed().deserializer();
            this.topics = topics;
            this.isDesired = isDesired;
            this.answers = answers;
        }

        @Override
        public void init(ProcessorContext<String, Object> context) {
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
                admit(record, st, desired.deserialize(topics.desired(), record.headers(), record.value()));
            } else {
                ObservedState o = observed.deserialize(topics.observed(), record.headers(), record.value());
                st.setObserved(o);
                if (answers) {
                    answer(record, st, o);
                }
            }
            store.put(record.key(), st);
        }

        private void admit(Record<String, byte[]> record, ReconcileState st, DesiredState d) {
            Resource previous = st.getResource();
            ResourceStatus status = previous == null || !answers ? ResourceStatus.newBuilder().build() : previous.getStatus();
            status.setSyncStatus(SyncStatus.Progressing);
            ObjectMeta.Builder meta = ObjectMeta.newBuilder().setKind(d.getKind()).setNamespace(d.getNamespace())
                .setName(d.getName()).setUid(record.key()).setCreationTimestamp(Instant.ofEpochMilli(record.timestamp()));
            if (answers) {
                meta.setGeneration(previous == null ? 1 : previous.getMetadata().getGeneration() + 1);
            }
            Resource r = Resource.newBuilder().setMetadata(meta.build()).setSpec(d.getSpec()).setStatus(status).build();
            st.setResource(r);
            context.forward(new Record<>(record.key(), (Object) r, record.timestamp()), RESOURCES);
            if (answers) {
                correct(record, r);
            }
        }

        private void answer(Record<String, byte[]> record, ReconcileState st, ObservedState o) {
            Resource r = st.getResource();
            if (r == null) {
                return;
            }
            boolean atGeneration = o.getObservedGeneration() == r.getMetadata().getGeneration();
            boolean synced = atGeneration && Values.sameTree(o.getState(), r.getSpec());
            r.getStatus().setObservedGeneration(o.getObservedGeneration());
            r.getStatus().setSyncStatus(synced ? SyncStatus.Synced : SyncStatus.OutOfSync);
            context.forward(new Record<>(record.key(), (Object) r, record.timestamp()), RESOURCES);
            if (atGeneration && !synced) {
                correct(record, r);
            }
        }

        private void correct(Record<String, byte[]> record, Resource r) {
            Instant now = Instant.ofEpochMilli(context.currentSystemTimeMs());
            ObjectMeta m = r.getMetadata();
            Correction c = Correction.newBuilder().setCommandId(UUID.randomUUID().toString()).setKind(m.getKind())
                .setNamespace(m.getNamespace()).setName(m.getName()).setUid(m.getUid()).setAction(Action.UPDATE)
                .setGeneration(m.getGeneration()).setDesiredSpec(r.getSpec()).setIssuedAt(now)
                .setDeadline(now.plusSeconds(30)).build();
            context.forward(new Record<>(record.key(), (Object) c, record.timestamp()), CORRECTIONS);
        }
    }
}
