package io.statesync.bench.system;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.statesync.avro.Action;
import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.DesiredState;
import io.statesync.avro.DiffKind;
import io.statesync.avro.EventType;
import io.statesync.avro.FieldDiff;
import io.statesync.avro.FieldOp;
import io.statesync.avro.FieldOpType;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Reason;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.avro.Value;
import io.statesync.avro.store.ReconcileState;
import io.statesync.schemas.Values;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import io.statesync.topology.store.ReconcileStateStore;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The latency suite's contract floor ({@link FloorTopology#contract}): every record, and every field in it, that
 * docs/contract.md asks for in answer to that suite's writes, with the least logic that fills them in. Beyond
 * {@link FloorTopology#answering} it gives each Resource a resourceVersion and the full status (the four conditions,
 * the field diff, attempts, the last correction, convergedAt and lastObservedAt), each correction its field-level
 * patch, and each convergence its Converged event; the state keeps the last correction and the last-applied spec, as
 * in-flight suppression and the three-way merge need them. The state lives in statesync's own store
 * ({@link ReconcileStateStore}: decoded, written back once per commit) and goes through statesync's serdes, so the two
 * differ only in their logic.
 *
 * <p>Still left out, each cheaper here than a record: the merge against last-applied (the diff is taken at the top
 * level only, which is exact for this suite's flat specs), backoff, deadline and resync timers, staleness, deletion,
 * orphans, kind policies and coalescing. So what it costs is a lower bound on any implementation of the contract.
 */
final class ContractFloorStep implements Processor<String, byte[], String, Object> {

    private static final String CONDITION_SYNCED = "Synced";

    private final Deserializer<DesiredState> desired;
    private final Deserializer<ObservedState> observed;
    private final TopicNames topics;
    private ProcessorContext<String, Object> context;
    private ReconcileStateStore store;
    private long revision;

    ContractFloorStep(TopologySerdes serdes, TopicNames topics) {
        this.desired = serdes.desired().deserializer();
        this.observed = serdes.observed().deserializer();
        this.topics = topics;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.store = ReconcileStateStore.of(context.getStateStore(FloorTopology.STORE));
        this.revision = context.taskId().partition() * 1_000_000_000_000L;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        ReconcileState st = store.read(record.key());
        if (st == null) {
            st = ReconcileState.newBuilder().build();
        }
        Instant now = Instant.ofEpochMilli(context.currentSystemTimeMs());
        if (topics.desired().equals(context.recordMetadata().orElseThrow().topic())) {
            admit(record, st, desired.deserialize(topics.desired(), record.headers(), record.value()), now);
        } else {
            observe(record, st, observed.deserialize(topics.observed(), record.headers(), record.value()), now);
        }
        store.write(record.key(), st);
    }

    private void admit(Record<String, byte[]> record, ReconcileState st, DesiredState d, Instant now) {
        Resource previous = st.getResource();
        ObjectMeta old = previous == null ? null : previous.getMetadata();
        ObjectMeta meta = new ObjectMeta(d.getKind(), d.getNamespace(), d.getName(),
            old == null ? UUID.randomUUID().toString() : old.getUid(), "", old == null ? 1 : old.getGeneration() + 1,
            old == null ? now : old.getCreationTimestamp(), null, Map.copyOf(d.getLabels()),
            Map.copyOf(d.getAnnotations()), List.copyOf(d.getFinalizers()), List.copyOf(d.getOwnerReferences()), List.of());
        ResourceStatus before = previous == null ? ResourceStatus.newBuilder().build() : previous.getStatus();
        Resource r = new Resource(meta, d.getSpec(), before);
        ObservedState o = st.getObserved();
        r.setStatus(answer(record, st, r, Reason.SpecChanged, o == null ? null : o.getState(), before, now));
        st.setResource(r);
        st.setLastApplied(d.getSpec());
        st.setDesiredWrittenAt(record.timestamp());
        publish(record, r);
    }

    private void observe(Record<String, byte[]> record, ReconcileState st, ObservedState o, Instant now) {
        Resource r = st.getResource();
        st.setObserved(o);
        if (r == null) {
            return;
        }
        long generation = r.getMetadata().getGeneration();
        boolean atGeneration = o.getObservedGeneration() == generation;
        boolean synced = atGeneration && Values.sameTree(o.getState(), r.getSpec());
        if (synced) {
            o.setState(r.getSpec()); // the state then encodes it as a flag, as statesync's does
        }
        ResourceStatus before = r.getStatus();
        if (synced) {
            r.setStatus(converged(before, o, now));
        } else if (atGeneration) {
            r.setStatus(answer(record, st, r, Reason.Drift, o.getState(), before, now));
        }
        publish(record, r);
        if (synced && before.getSyncStatus() != SyncStatus.Synced) {
            ObjectMeta m = r.getMetadata();
            context.forward(new Record<>(record.key(), (Object) new ReconcileEvent(UUID.randomUUID().toString(),
                EventType.Converged, "Synced", "observed matches desired", m.getKind(), m.getNamespace(), m.getName(),
                m.getUid(), null, m.getResourceVersion(), generation, now.toEpochMilli() - st.getDesiredWrittenAt(), now, List.of()),
                record.timestamp()), FloorTopology.EVENTS);
        }
    }

    private void publish(Record<String, byte[]> record, Resource r) {
        r.getMetadata().setResourceVersion(Long.toString(++revision));
        context.forward(new Record<>(record.key(), (Object) r, record.timestamp()), FloorTopology.RESOURCES);
    }

    /** Emits the correction (field-level patch and full spec), and returns the status that shows it outstanding. */
    private ResourceStatus answer(Record<String, byte[]> record, ReconcileState st, Resource r, Reason reason,
                                  Value observedState, ResourceStatus before, Instant now) {
        ObjectMeta m = r.getMetadata();
        List<FieldOp> patch = new ArrayList<>();
        List<FieldDiff> diff = topLevelDiff(r.getSpec(), observedState, patch);
        Correction c = new Correction(UUID.randomUUID().toString(), m.getKind(), m.getNamespace(), m.getName(), m.getUid(),
            Action.UPDATE, reason, m.getGeneration(), 1, patch, r.getSpec(), now, now.plusSeconds(30));
        context.forward(new Record<>(record.key(), (Object) c, record.timestamp()), FloorTopology.CORRECTIONS);
        st.setLastCorrection(new Correction(c.getCommandId(), c.getKind(), c.getNamespace(), c.getName(), c.getUid(),
            c.getAction(), c.getReason(), c.getGeneration(), c.getAttempt(), List.of(), c.getDesiredSpec(),
            c.getIssuedAt(), c.getDeadline()));
        return progressing(before, c, diff, now);
    }

    /** The fields of {@code spec} that {@code state} lacks or holds otherwise, each as a diff and a SET. */
    @SuppressWarnings("unchecked")
    private static List<FieldDiff> topLevelDiff(Value spec, Value state, List<FieldOp> patch) {
        List<FieldDiff> diff = new ArrayList<>();
        Map<String, Value> want = (Map<String, Value>) spec.getValue();
        Map<String, Value> have = state == null || !(state.getValue() instanceof Map) ? Map.of()
            : (Map<String, Value>) state.getValue();
        for (Map.Entry<String, Value> e : want.entrySet()) {
            Value h = have.get(e.getKey());
            if (h == null || !Values.sameTree(e.getValue(), h)) {
                List<String> path = List.of(e.getKey());
                diff.add(new FieldDiff(path, h == null ? DiffKind.MISSING : DiffKind.VALUE_MISMATCH, e.getValue(), h));
                patch.add(new FieldOp(FieldOpType.SET, path, e.getValue()));
            }
        }
        return diff;
    }

    private static ResourceStatus progressing(ResourceStatus before, Correction c, List<FieldDiff> diff, Instant now) {
        StringBuilder fields = new StringBuilder();
        for (FieldDiff d : diff) {
            fields.append(fields.length() == 0 ? "" : ", ").append(String.join(".", d.getPath()));
        }
        List<Condition> conditions = List.of(
            condition(before, CONDITION_SYNCED, "False", c.getReason().name(), diff.size() + " fields differ: " + fields, now),
            condition(before, "Progressing", "True", "CorrectionIssued", c.getAction() + " (" + c.getReason() + ") attempt "
                + c.getAttempt() + ", deadline " + c.getDeadline(), now),
            condition(before, "Stalled", "False", "AsExpected", "", now),
            condition(before, "ObservedStale", "False", "RecentObservation", "", now));
        CorrectionRef ref = new CorrectionRef(c.getCommandId(), c.getAction(), c.getReason(), c.getGeneration(),
            c.getAttempt(), c.getIssuedAt(), c.getDeadline());
        return new ResourceStatus(before.getObservedGeneration(), SyncStatus.Progressing, conditions, diff, 1, ref,
            before.getConvergedAt(), before.getLastObservedAt(), before.getHealth(), before.getReported(),
            before.getReportedConditions());
    }

    private static ResourceStatus converged(ResourceStatus before, ObservedState o, Instant now) {
        List<Condition> conditions = List.of(
            condition(before, CONDITION_SYNCED, "True", "Synced", "observed state matches the desired spec", now),
            condition(before, "Progressing", "False", "Idle", "", now),
            condition(before, "Stalled", "False", "AsExpected", "", now),
            condition(before, "ObservedStale", "False", "RecentObservation", "", now));
        return new ResourceStatus(o.getObservedGeneration(), SyncStatus.Synced, conditions, List.of(), 0,
            before.getLastCorrection(), now, o.getObservedAt(), before.getHealth(), o.getStatus(), o.getConditions());
    }

    /** Keeps the previous condition's transition time while its status holds, as the Kubernetes conventions say. */
    private static Condition condition(ResourceStatus before, String type, String status, String reason, String message,
                                       Instant now) {
        for (Condition c : before.getConditions()) {
            if (c.getType().equals(type)) {
                Instant since = c.getStatus().equals(status) ? c.getLastTransitionTime() : now;
                return new Condition(type, status, reason, message, since, null);
            }
        }
        return new Condition(type, status, reason, message, now, null);
    }
}
