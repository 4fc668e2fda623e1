package io.statesync.topology.internal;


import io.statesync.topology.PolicyCatalog;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.Value;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.gc.CollectedTask;
import io.statesync.gc.DependentsIndex;
import io.statesync.reconciler.AdmissionOutcome;
import io.statesync.reconciler.Propagation;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.schemas.Values;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.WriteAdmission;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * The per-task reconcile logic behind the processors and the timer: admission (CAS, generation, resourceVersion),
 * observation (staleness), and the timer walk. Every path ends in {@link TaskReconciler#reconcile}, the task's one
 * reconciler, which recomputes from the full stored state of the key, never from the event alone.
 */
final class ReconcileEngine implements CollectedTask {

    /** Where the engine's results go; the processors forward them to the sinks. */
    interface Output {
        void resource(String key, Resource resourceOrTombstone, long timestamp);

        void correction(String key, io.statesync.avro.Correction correction, long timestamp);

        void event(String key, io.statesync.avro.ReconcileEvent event, long timestamp);

        /** An admission answer: an event whose record carries {@code answerId} (when not null) for its writer. */
        void answer(String key, io.statesync.avro.ReconcileEvent event, String answerId, long timestamp);

        /** A deletion completed: {@code last} was the stored Resource, and the key's tombstone goes out. */
        default void deleted(String key, Resource last, long timestamp) {
            resource(key, null, timestamp);
        }
    }

    /**
     * One admission request: a desired write, or a delete when {@code desired} is null (with its propagation). A
     * writer that awaits the answer sets {@code answerId}, {@code requestId} or both.
     */
    record Write(String key, ResourceKey resourceKey, DesiredState desired, String requestId, String answerId,
                 String deleteExpectedVersion, long eventTime, Propagation propagation) {

        /** Someone waits for this write's answer. */
        boolean awaited() {
            return requestId != null || answerId != null;
        }
    }

    private final TopologyContext ctx;
    private final TaskReconciler reconciler;
    private final StateStores stores;
    private final PolicyCatalog policies;
    private final Events events;
    private final int maxTimerKeys;
    private final int maxTimerWrites;
    private static final int SWEEP_SHARE = 20;
    /** statesync_queue_depth counts a task's due timers up to this many, so that measuring a backlog stays cheap. */
    private static final int QUEUE_DEPTH_CAP = 100_000;

    /** The admission reason that answers an accepted status-only report. */
    static final String STATUS_REPORTED = "StatusReported";
    private static final Value EMPTY_SPEC = Values.fromJava(Map.of());

    private final boolean coalesce;
    private final String task;
    private final DependentsIndex ownership;
    private final WriteAdmission.Limits limits;
    private final OutputBudget outputs;
    /** The task's one output, the reconciler's: every admission, observation and timer answers through it. */
    private final Output out;
    private String resyncCursor;
    /** The resync sweep has passed over the whole store since the task was assigned. */
    private boolean sweptOnce;

    ReconcileEngine(TopologyContext ctx, TaskReconciler reconciler) {
        this.ctx = ctx;
        this.reconciler = reconciler;
        this.ownership = reconciler.ownership();
        this.stores = reconciler.stores();
        this.policies = reconciler.policies();
        this.events = reconciler.events();
        this.task = reconciler.task();
        this.maxTimerKeys = ctx.config().getInt(AppConfig.RESYNC_MAX_KEYS);
        this.maxTimerWrites = ctx.config().getInt(AppConfig.RESYNC_MAX_WRITES);
        this.coalesce = ctx.config().getBoolean(AppConfig.RECONCILE_COALESCE_ENABLED);
        this.limits = WriteAdmission.Limits.of(ctx.config());
        this.outputs = new OutputBudget(ctx.config());
        this.out = reconciler.output();
    }

    /** The engine of {@code pc}'s task, over the task's one reconciler; the processor releases it when it closes. */
    static ReconcileEngine create(TopologyContext ctx, ProcessorContext<Object, Object> pc) {
        return new ReconcileEngine(ctx, ctx.reconcilers().acquire(pc, p -> TaskReconciler.create(ctx, p)));
    }

    /** The processor of {@code pc} closed: the task's reconciler goes with the last of them. */
    static void release(TopologyContext ctx, ProcessorContext<Object, Object> pc) {
        ctx.reconcilers().release(pc);
    }

    @Override
    public String task() {
        return task;
    }

    @Override
    public Resource resource(String key) {
        ReconcileState st = stores.get(key);
        Resource r = st == null ? null : st.getResource();
        return r == null || ReconcileStep.isOrphanPlaceholder(r) ? null : r;
    }

    @Override
    public void reconcileChanged(String key, long now) {
        reconciler.reconcile(key, TaskReconciler.Cause.of(TaskReconciler.Why.COLLECTED, now));
    }

    @Override
    public void reconcileDependents(String ownerKey, long now) {
        ReconcileState st = stores.get(ownerKey);
        if (st != null && st.getResource() != null) {
            reconciler.reconcile(ownerKey, TaskReconciler.Cause.of(TaskReconciler.Why.DEPENDENTS, now));
        }
    }

    @Override
    public void dropFinalizer(String key, String finalizer, long now) {
        ReconcileState st = stores.get(key);
        if (st == null || st.getResource() == null || !st.getResource().getMetadata().getFinalizers().contains(finalizer)) {
            return;
        }
        List<String> rest = new java.util.ArrayList<>(st.getResource().getMetadata().getFinalizers());
        rest.remove(finalizer);
        st.getResource().getMetadata().setFinalizers(rest);
        reconcileChanged(key, now);
    }

    @Override
    public void delete(String key, Propagation propagation, long eventTime, long now) {
        admit(new Write(key, ResourceKey.parse(key), null, null, null, null, eventTime, propagation), now);
    }

    /**
     * Starts recounting the resources the task's store holds into statesync_resources, and counts a first slice: called
     * when the task is assigned, at start and after a rebalance, so the gauge says what is, whatever transitions were
     * missed or counted elsewhere. Returns whether the recount has ended; if not, {@link #recountSome} goes on.
     */
    boolean recountResources() {
        reconciler.counter().startRecount();
        return reconciler.counter().recount(0);
    }

    /** Goes on with the recount for about {@code budgetNanos}; returns whether it has ended. */
    boolean recountSome(long budgetNanos) {
        return reconciler.counter().recount(budgetNanos);
    }

    /** The task leaves this instance (revoked or closed): its resources are no longer counted here. */
    void forgetResources() {
        ctx.metrics().taskClosed(task);
    }

    /**
     * Admits or refuses one write. Returns the refusal when the write's outputs could pass the largest record the
     * topics take, so the caller sends its input to the DLQ; null otherwise.
     */
    WriteAdmission.Refused admit(Write w, long now) {
        ReconcileState st = stores.get(w.key());
        Resource current = st == null ? null : st.getResource();
        boolean exists = current != null && !ReconcileStep.isOrphanPlaceholder(current);
        if (w.desired() == null) {
            WriteAdmission.Refused refused = WriteAdmission.decideDelete(exists ? current : null, w.key(), w.deleteExpectedVersion());
            if (refused != null) {
                refuse(w, refused, exists ? current : null, now);
            } else {
                admitDelete(w, st, current, now);
            }
            return null;
        }
        ReconcilePolicy policy;
        try {
            policy = policies.forAdmission(w.resourceKey().kind());
        } catch (PolicyCatalog.PolicyUnavailableException e) {
            refuse(w, new WriteAdmission.Refused(EventType.Invalid, WriteAdmission.POLICY_UNAVAILABLE, e.getMessage()),
                exists ? current : null, now);
            return null;
        }
        WriteAdmission.Decision d = WriteAdmission.decide(exists ? current : null, w.desired(), policy, limits, now);
        if (d instanceof WriteAdmission.Accepted accepted) {
            WriteAdmission.Refused tooLarge = outputs.check(accepted.effective(), st == null ? null : st.getObserved());
            if (tooLarge != null) {
                refuse(w, tooLarge, exists ? current : null, now);
                return tooLarge;
            }
        }
        if (d instanceof WriteAdmission.Refused refused) {
            refuse(w, refused, exists ? current : null, now);
        } else {
            admitWrite(w, (WriteAdmission.Accepted) d, st == null ? ReconcileState.newBuilder().build() : st,
                exists ? current : null, now);
        }
        return null;
    }

    private void refuse(Write w, WriteAdmission.Refused refused, Resource current, long now) {
        if (refused.type() == EventType.Conflict) {
            ctx.metrics().conflict(w.resourceKey().kind(), WriteAdmission.ALREADY_EXISTS.equals(refused.reason())
                ? "AlreadyExists" : WriteAdmission.FIELD_MANAGER_CONFLICT.equals(refused.reason()) ? "FieldManager"
                : "ResourceVersion");
            ctx.metrics().admission("conflict");
            ReconcileEvent answer = events.admission(EventType.Conflict, refused.reason(), refused.message(), w, current,
                current == null ? "" : current.getMetadata().getResourceVersion(), now);
            answer.setCauses(refused.causes());
            out.answer(w.key(), answer, w.answerId(), now);
        } else {
            ctx.metrics().admission("invalid");
            // A spec refused by the kind's validation rules is announced even when nobody awaits the answer: unlike
            // a record that does not decode, it reaches no DLQ, and its writer (a producer writing straight to the
            // topic) has no other way to learn why nothing changed.
            boolean validation = WriteAdmission.VALIDATION_FAILED.equals(refused.reason())
                || WriteAdmission.SCHEMA_VIOLATION.equals(refused.reason())
                || WriteAdmission.POLICY_UNAVAILABLE.equals(refused.reason());
            if (w.awaited() || validation) {
                ReconcileEvent answer = events.invalid(w.key(), w.resourceKey(), w.requestId(), refused.reason(),
                    refused.message(), now);
                answer.setCauses(refused.causes());
                out.answer(w.key(), answer, w.answerId(), now);
            }
        }
    }

    private void admitWrite(Write w, WriteAdmission.Accepted accepted, ReconcileState st, Resource current, long now) {
        AdmissionOutcome outcome = accepted.outcome();
        if (outcome instanceof AdmissionOutcome.NoOp) {
            replyNoOp(w, current, now);
            return;
        }
        if (st.getUnpublishedResourceVersion() != null) {
            // The key's previous write is still unpublished: publish it first, so that every accepted write (every
            // resourceVersion answered) appears on statesync.resources and watches see no gap.
            reconciler.reconcile(w.key(), TaskReconciler.Cause.of(TaskReconciler.Why.EARLIER_WRITE, now));
        }
        st.setResource(WriteAdmission.admitted(current, accepted, now));
        ownership.referencesChanged(w.key(), current, st.getResource(), now);
        st.setDesiredDeleted(false);
        if (!(outcome instanceof AdmissionOutcome.MetadataChanged)) {
            st.setDesiredWrittenAt(w.eventTime());
        }
        // An awaited write is reconciled at once, so its Resource is in the transaction that carries its answer: a
        // caller that lists or watches after the answer sees it.
        Resource emitted = coalesce && !w.awaited() ? defer(w.key(), st) : admitted(w.key(), st, now);
        ctx.metrics().admission("accepted");
        // Only a request waits for this answer; the Resource on statesync.resources tells everyone else (docs/topology.md).
        if (w.awaited()) {
            String reason = outcome instanceof AdmissionOutcome.Created ? "Created"
                : outcome instanceof AdmissionOutcome.SpecChanged ? "SpecChanged" : "MetadataChanged";
            out.answer(w.key(), events.admission(EventType.Accepted, reason, "generation " + outcome.generation(), w,
                emitted, emitted == null ? "" : emitted.getMetadata().getResourceVersion(), now), w.answerId(), now);
        }
    }

    private Resource admitted(String key, ReconcileState st, long now) {
        reconciler.keep(key, st);
        return reconciler.reconcile(key, TaskReconciler.Cause.of(TaskReconciler.Why.ADMITTED, now));
    }

    /**
     * Coalesced admission: the Resource gets its resourceVersion now (the Accepted event answers with it), and the
     * reconcile that publishes it under that version runs in the next batch.
     */
    private Resource defer(String key, ReconcileState st) {
        Resource admitted = st.getResource();
        String version = stores.nextResourceVersion();
        admitted.getMetadata().setResourceVersion(version);
        st.setUnpublishedResourceVersion(version);
        stores.put(key, st);
        stores.markPending(key);
        return admitted;
    }

    private void admitDelete(Write w, ReconcileState st, Resource current, long now) {
        if (current.getMetadata().getDeletionTimestamp() != null) {
            replyNoOp(w, current, now);
            return;
        }
        current.getMetadata().setDeletionTimestamp(Instant.ofEpochMilli(now));
        ownership.deleting(w.key(), current, w.propagation(), now);
        st.setDesiredDeleted(true);
        Resource emitted = admitted(w.key(), st, now);
        ctx.metrics().admission("accepted");
        String version = emitted == null ? "" : emitted.getMetadata().getResourceVersion();
        out.answer(w.key(), events.admission(EventType.Accepted, emitted == null ? "Deleted" : "Deleting",
            "deletion requested", w, current, version, now), w.answerId(), now);
    }

    private void replyNoOp(Write w, Resource current, long now) {
        ctx.metrics().admission("noop");
        if (w.awaited()) {
            out.answer(w.key(), events.admission(EventType.Accepted, "NoOp", "identical to the stored resource", w,
                current, current.getMetadata().getResourceVersion(), now), w.answerId(), now);
        }
    }

    void rejectInvalid(String key, String requestId, String answerId, String message, long now) {
        ctx.metrics().admission("invalid");
        if (requestId != null || answerId != null) {
            ResourceKey rk = key == null ? null : ResourceKey.tryParse(key).orElse(null);
            out.answer(key == null ? "" : key, events.invalid(key, rk, requestId, WriteAdmission.INVALID, message, now),
                answerId, now);
        }
    }

    void observe(String key, ResourceKey rk, ObservedState report, long eventTime, long now) {
        ReconcileState st = stores.get(key);
        ObservedState obs = report != null ? report : ObservedState.newBuilder().setKind(rk.kind())
            .setNamespace(rk.namespace()).setName(rk.name()).setState(null)
            .setObservedAt(Instant.ofEpochMilli(Math.max(eventTime, 0))).build();
        if (report != null && st != null && isStale(st, report)) {
            ctx.metrics().staleObservation();
            return;
        }
        if (st == null) {
            if (obs.getState() == null) {
                return;
            }
            st = ReconcileState.newBuilder().build();
        }
        shareSpecIfSame(obs, st.getResource());
        shareWithState(obs, st);
        st.setObserved(obs);
        st.setObservedFromStatus(false);
        observed(key, st, false, now);
    }

    /** Reconciles an observed key now, or in the next batch when coalescing and nobody awaits the report. */
    private Resource observed(String key, ReconcileState st, boolean awaited, long now) {
        if (coalesce && !awaited) {
            stores.put(key, st);
            stores.markPending(key);
            return null;
        }
        reconciler.keep(key, st);
        return reconciler.reconcile(key, TaskReconciler.Cause.of(TaskReconciler.Why.OBSERVED, now));
    }

    /**
     * A status-only report, a write to the status subresource ({@code w} carries its key, its precondition as
     * {@code deleteExpectedVersion} and who awaits it): refused when the resource does not exist (404), when its
     * precondition names another resourceVersion or it is stale (409); otherwise observed with the observed spec kept
     * (see {@link #observedSpec}) and answered with the version the Resource stands at afterwards.
     */
    void observeStatus(Write w, ObservedState report, long now) {
        ReconcileState st = stores.get(w.key());
        Resource current = st == null ? null : st.getResource();
        if (current == null || ReconcileStep.isOrphanPlaceholder(current)) {
            refuse(w, new WriteAdmission.Refused(EventType.Invalid, WriteAdmission.NOT_FOUND, w.key() + " does not exist"),
                null, now);
            return;
        }
        String expected = w.deleteExpectedVersion();
        String version = current.getMetadata().getResourceVersion();
        if (expected != null && !expected.isEmpty() && !expected.equals(version)) {
            refuse(w, new WriteAdmission.Refused(EventType.Conflict, WriteAdmission.RESOURCE_VERSION_MISMATCH,
                "the object has been modified: resourceVersion " + expected + " is not the current " + version), current, now);
            return;
        }
        if (isStale(st, report)) {
            ctx.metrics().staleObservation();
            refuse(w, new WriteAdmission.Refused(EventType.Conflict, WriteAdmission.RESOURCE_VERSION_MISMATCH,
                "the report is stale: it is older than the latest report, or about another uid"), current, now);
            return;
        }
        report = admitStatus(w, report, current, now);
        if (report == null) {
            return;
        }
        ObservedState prev = st.getObserved();
        boolean agentSpec = prev != null && !st.getObservedFromStatus();
        report.setState(observedSpec(st, current, report));
        if (prev != null) {
            // A status write acknowledges no correction and fails none: the agent's last word on those stands.
            report.setAckCommandId(prev.getAckCommandId());
            report.setError(prev.getError());
        }
        shareWithState(report, st);
        st.setObserved(report);
        st.setObservedFromStatus(!agentSpec);
        Resource emitted = observed(w.key(), st, w.awaited(), now);
        if (w.awaited()) {
            Resource shown = emitted != null ? emitted : resource(w.key());
            Resource answered = shown != null ? shown : current;
            out.answer(w.key(), events.admission(EventType.Accepted, STATUS_REPORTED, "status reported by "
                + report.getReporter(), w, answered, answered.getMetadata().getResourceVersion(), now), w.answerId(), now);
        }
    }

    /** The report held to the kind's schema, or null once the write is refused (unavailable policy, invalid status). */
    private ObservedState admitStatus(Write w, ObservedState report, Resource current, long now) {
        io.statesync.topology.Schemas.StatusOutcome outcome;
        try {
            outcome = io.statesync.topology.Schemas.admitStatus(
                policies.forAdmission(w.resourceKey().kind()).definition(), report, current);
        } catch (PolicyCatalog.PolicyUnavailableException e) {
            refuse(w, new WriteAdmission.Refused(EventType.Invalid, WriteAdmission.POLICY_UNAVAILABLE, e.getMessage()),
                current, now);
            return null;
        }
        if (outcome.refused() != null) {
            refuse(w, outcome.refused(), current, now);
            return null;
        }
        return outcome.report();
    }

    /**
     * What a status-only report observed as the spec: an agent's reported spec when one reported it (its field diff
     * stands); otherwise, as Kubernetes' controllers say it with status.observedGeneration, the spec itself once the
     * report's observedGeneration is the resource's generation, and until then the spec the last report matched (an
     * empty one before any), so the resource is Progressing until its controller catches up.
     */
    private static Value observedSpec(ReconcileState st, Resource current, ObservedState report) {
        ObservedState prev = st.getObserved();
        if (prev != null && !st.getObservedFromStatus()) {
            return prev.getState();
        }
        if (report.getObservedGeneration() == current.getMetadata().getGeneration()) {
            return current.getSpec();
        }
        return prev != null && prev.getState() != null ? prev.getState() : EMPTY_SPEC;
    }

    /** The coalesced batch: one reconcile per key that had events since the last batch. */
    void reconcilePending(long now) {
        ctx.metrics().queueDepth(task, ReconcileMetrics.QUEUE_BATCH, stores.pendingCount());
        drainPending(now);
    }

    private void drainPending(long now) {
        TaskReconciler.Cause batch = TaskReconciler.Cause.of(TaskReconciler.Why.BATCH, now);
        for (String key : stores.drainPending()) {
            reconciler.reconcile(key, batch);
        }
    }

    /**
     * An agent that has converged reports the spec back: one comparison here lets the report hold the spec's own
     * instance, whose planning tree is already cached and which the state writes as a flag, instead of converting and
     * comparing a tree of its own at each of those steps. Values are never changed in place, so sharing one is safe.
     */
    private static void shareSpecIfSame(ObservedState obs, Resource resource) {
        Value spec = resource == null ? null : resource.getSpec();
        Value reported = obs.getState();
        if (spec != null && reported != null && reported != spec
            && Values.sameTree(reported, spec)) {
            obs.setState(spec);
        }
    }

    /**
     * A report names its resource, and the command it acknowledges, with strings of its own, equal to the state's (the
     * key matched, and a report about another uid is stale). It keeps the state's instances instead: the report lives in
     * the state until the next one, and every string there is two more objects for each young collection to copy. For
     * the same reason an empty list of conditions (most agents report none) becomes the shared empty list.
     */
    private static void shareWithState(ObservedState obs, ReconcileState st) {
        if (obs.getConditions() != null && obs.getConditions().isEmpty()) {
            obs.setConditions(List.of());
        }
        if (st.getLastCorrection() != null) {
            obs.setAckCommandId(sameOr(st.getLastCorrection().getCommandId(), obs.getAckCommandId()));
        }
        if (st.getResource() == null) {
            return;
        }
        ObjectMeta m = st.getResource().getMetadata();
        obs.setKind(sameOr(m.getKind(), obs.getKind()));
        obs.setNamespace(sameOr(m.getNamespace(), obs.getNamespace()));
        obs.setName(sameOr(m.getName(), obs.getName()));
        obs.setUid(sameOr(m.getUid(), obs.getUid()));
    }

    /** {@code kept} when it equals {@code s}, else {@code s}. */
    private static String sameOr(String kept, String s) {
        return kept != null && kept.equals(s) ? kept : s;
    }

    /** Older than the newest stored report, or about a resource with another uid (a deleted and recreated one). */
    private static boolean isStale(ReconcileState st, ObservedState report) {
        ObservedState prev = st.getObserved();
        if (prev != null && report.getObservedAt().isBefore(prev.getObservedAt())) {
            return true;
        }
        Resource r = st.getResource();
        return r != null && report.getUid() != null && !r.getMetadata().getUid().isEmpty()
            && !ReconcileStep.isOrphanPlaceholder(r) && !Objects.equals(report.getUid(), r.getMetadata().getUid());
    }

    /** The wall-clock timer: due deadlines and backoffs first, then a bounded slice of the resync sweep. */
    void onTimer(long now) {
        // Not measured as the batch's depth: the batch's own punctuation does that, and this drain finds what is left.
        drainPending(now);
        // Measured before the walk: what is due now, whether or not this run's budget reaches all of it. A walk that
        // takes fewer than its budget took all that is due, so only a backlog is counted by a scan of its own.
        List<Map.Entry<Long, String>> dueNow = stores.due(now, maxTimerKeys);
        ctx.metrics().queueDepth(task, ReconcileMetrics.QUEUE_TIMER,
            dueNow.size() < maxTimerKeys ? dueNow.size() : stores.dueCount(now, QUEUE_DEPTH_CAP));
        int writes = 0;
        TaskReconciler.Cause timer = TaskReconciler.Cause.of(TaskReconciler.Why.TIMER, now);
        for (Map.Entry<Long, String> due : dueNow) {
            ReconcileState st = stores.get(due.getValue());
            if (st == null) {
                stores.reschedule(due.getValue(), due.getKey(), 0);
                continue;
            }
            // The fired entry goes now; the reconcile arms whatever the key needs next (timers move lazily, so it
            // may have fired before anything is due).
            stores.reschedule(due.getValue(), due.getKey(), 0);
            if (st.getNextCheckAt() == due.getKey()) {
                st.setNextCheckAt(0);
            }
            reconciler.reconcile(due.getValue(), timer);
            if (++writes >= maxTimerWrites) {
                return;
            }
        }
        resyncSlice(now, maxTimerWrites - writes);
    }

    /**
     * Resyncs ride on the timer index (see ReconcileStep#resyncAt); this slow sweep only gives a timer to a state that has
     * none (one kept from a release that did not index resyncs), so it visits a twentieth of the timer's key budget per run.
     * Every reconcile arms the key's timer, so such a state can only have come with the store: one pass over the store
     * after the task is assigned finds them all, and the sweep then stops decoding states for nothing.
     */
    private void resyncSlice(long now, int writeBudget) {
        if (sweptOnce) {
            return;
        }
        int limit = Math.min(Math.max(1, maxTimerKeys / SWEEP_SHARE), Math.max(writeBudget, 0));
        var slice = stores.slice(resyncCursor, limit);
        sweptOnce = limit > 0 && slice.size() < limit;
        resyncCursor = slice.isEmpty() ? null : slice.get(slice.size() - 1).key;
        for (var kv : slice) {
            ReconcileState st = kv.value;
            if (st.getNextCheckAt() <= 0) {
                // The slice may hold a state decoded for it alone: the reconcile reads the one the store keeps.
                reconciler.keep(kv.key, st);
                reconciler.reconcile(kv.key, TaskReconciler.Cause.of(TaskReconciler.Why.RESYNC, now));
            }
        }
    }

}
