package io.statesync.topology.internal;


import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.Optional;
import java.util.UUID;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.EventType;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.Value;
import io.statesync.avro.store.ReconcileState;
import io.statesync.reconciler.CorrectionPlanner;
import io.statesync.reconciler.Decision;
import io.statesync.reconciler.GenerationRules;
import io.statesync.reconciler.HealthCalculator;
import io.statesync.reconciler.HealthInput;
import io.statesync.reconciler.HealthView;
import io.statesync.reconciler.MergeResult;
import io.statesync.reconciler.ObservedView;
import io.statesync.reconciler.OrphanPolicy;
import io.statesync.reconciler.PlanInput;
import io.statesync.reconciler.PlannedCorrection;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.StatusCalculator;
import io.statesync.reconciler.StatusView;
import io.statesync.reconciler.SyncStatus;
import io.statesync.topology.ApiOnlyKinds;
import io.statesync.topology.ReconcileMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One reconcile of one key from its full stored state: plan, emit the correction, compute the status,
 * finish a deletion, emit the Resource only when something changed, and set the key's next timer.
 */
final class ReconcileStep {

    private static final Logger LOG = LoggerFactory.getLogger(ReconcileStep.class);

    private final StateStores stores;
    private final CorrectionPlanner planner;
    private final ReconcileMetrics metrics;
    private final Events events;
    private final StepEvents stepEvents;
    /** The task's share of statesync_resources. */
    private final ResourceCounter counter;
    /** A key's dependents for the health rules' {@code children}, read only for a kind that has rules. */
    private final Function<String, List<Map<String, Object>>> children;
    /** Paces the corrections this task issues per kind. */
    private final CorrectionRateLimiter limiter;

    ReconcileStep(StateStores stores, CorrectionPlanner planner, ReconcileMetrics metrics, Events events, ResourceCounter counter,
                  Function<String, List<Map<String, Object>>> children, CorrectionRateLimiter limiter) {
        this.counter = counter;
        this.limiter = limiter;
        this.children = children;
        this.stores = stores;
        this.planner = planner;
        this.metrics = metrics;
        this.events = events;
        this.stepEvents = new StepEvents(events, metrics);
    }

    /** An orphan is shown as a Resource of generation 0 with no spec, so it can be listed and watched. */
    static boolean isOrphanPlaceholder(Resource r) {
        return r.getMetadata().getGeneration() == 0;
    }

    /** Returns the Resource it emitted, or null when nothing was emitted (or a tombstone was). */
    Resource run(String key, ReconcileState st, ReconcilePolicy policy, Instant now, boolean resourceChanged,
                 ReconcileEngine.Output out) {
        long t0 = System.nanoTime();
        stores.reconciled(key);
        Value spec = st.getResource() == null ? null : st.getResource().getSpec();
        Object specTree = AvroMapping.frozenTree(spec);
        ObservedView observed = AvroMapping.observedView(st.getObserved(), spec, specTree);
        if (st.getResource() == null && !ensureOrphanPlaceholder(key, st, policy, observed, now)) {
            finish(key, st, null, policy, now.toEpochMilli());
            return null;
        }
        Resource res = st.getResource();
        Counted countedBefore = Counted.of(res);
        String kind = res.getMetadata().getKind();
        if (ApiOnlyKinds.contains(kind)) {
            observed = apiOnlyObserved(res, specTree, now);
        } else if (st.getObservedFromStatus() && res.getMetadata().getDeletionTimestamp() != null) {
            // Only status writes observe the key: its controller never reports the resource absent, so, as in
            // Kubernetes, the deletion waits for the finalizers alone.
            observed = ObservedView.absent(now);
        }
        PlanInput in = planInput(key, st, res, policy, observed, specTree, now);
        MergeResult merge = CorrectionPlanner.merge(in); // one merge, read by both the plan and the status
        Decision decision = paced(kind, planner.plan(in, merge), now);
        Correction issued = decision instanceof Decision.Emit emit ? emitCorrection(key, st, res, emit.correction(), now, out)
            : null;
        StatusView prev = AvroMapping.statusView(res.getStatus());
        StatusView next = health(key, st, res, policy, observed, prev, StatusCalculator.compute(prev, in, decision, merge), now);
        Resource emitted = isDeletionComplete(res, observed)
            ? completeDeletion(key, st, res, policy, resourceChanged, now, out)
            : publishAndAnnounce(key, st, res, new Outcome(decision, merge, issued, prev, next), resourceChanged, now, out);
        if (decision instanceof Decision.InSync) {
            // A finished correction must not look outstanding to the planner when the same drift comes back later;
            // the status keeps showing it as lastCorrection.
            st.setLastCorrection(null);
            st.setLastCorrectionFingerprint(null);
        }
        Counted countedAfter = Counted.of(st.getResource());
        if (!Objects.equals(countedBefore, countedAfter)) {
            counter.moved(key, Counted.series(countedBefore), Counted.series(countedAfter));
        }
        metrics.reconciled(kind, decision.getClass().getSimpleName(), result(decision), System.nanoTime() - t0);
        log(key, res, st, decision);
        finish(key, st, decision, policy, now.toEpochMilli());
        return emitted;
    }

    /**
     * Holds back a planned correction whose kind has no token left in this task's bucket: the key waits on its timer
     * (which survives a restart) until the token is due, and is planned afresh then. New generations, retries,
     * drift repairs and deletes alike, since each costs the agent the same work.
     */
    private Decision paced(String kind, Decision decision, Instant now) {
        if (!(decision instanceof Decision.Emit)) {
            return decision;
        }
        long due = limiter.acquire(kind, now.toEpochMilli());
        if (due == 0) {
            return decision;
        }
        metrics.correctionDelayed(kind);
        return new Decision.Wait(Instant.ofEpochMilli(due), Decision.Wait.RATE_LIMITED);
    }

    /** What one reconcile decided and computed, for the events that follow its publish. */
    private record Outcome(Decision decision, MergeResult merge, Correction issued, StatusView prev, StatusView next) {
    }

    /** Publishes the Resource when something changed, then the events, so that they carry the version they describe. */
    private Resource publishAndAnnounce(String key, ReconcileState st, Resource res, Outcome o, boolean resourceChanged,
                                        Instant now, ReconcileEngine.Output out) {
        Resource emitted = publish(key, st, res, o.prev(), o.next(), resourceChanged, now, out);
        long ts = now.toEpochMilli();
        if (o.issued() != null) {
            stepEvents.correction(key, res, o.issued(), o.merge(), o.next(), st.getObserved(), ts, out);
        }
        if (emitted != null) {
            stepEvents.health(key, res, o.prev(), o.next(), ts, out);
            transitions(key, st, res, o.decision(), o.prev(), o.next(), now, out);
        }
        return emitted;
    }

    /**
     * Judges the health on every reconcile (observation, write, timer), apart from the sync status. The rules'
     * variables are built only for a kind that has rules.
     */
    private StatusView health(String key, ReconcileState st, Resource res, ReconcilePolicy policy, ObservedView observed,
                              StatusView prev, StatusView next, Instant now) {
        ObservedState o = st.getObserved();
        // A kind without health rules reads no variables, so neither they nor the key's children are looked up.
        HealthInput input = new HealthInput(observed, AvroMapping.observedConditions(o), policy.healthRules().isEmpty()
            ? Map::of : () -> AvroMapping.healthVariables(res, o, next.syncStatus(), children.apply(key)));
        HealthView health = HealthCalculator.compute(prev.health(), input, policy.healthRules(), now);
        return HealthCalculator.withHealth(prev, next, health);
    }

    /**
     * The statesync_resources series a stored resource counts in, or null when it counts in none: none is stored, or
     * it was never reconciled yet (a status without conditions, as admission or an orphan placeholder first makes it).
     */
    static String series(Resource r) {
        return Counted.series(Counted.of(r));
    }

    /**
     * What a stored resource counts in statesync_resources by, compared before and after a reconcile without building
     * the series' name, which only a resource that moves needs.
     */
    private record Counted(String kind, io.statesync.avro.SyncStatus sync, io.statesync.avro.HealthStatus health) {

        static Counted of(Resource r) {
            if (r == null || r.getStatus().getConditions().isEmpty()) {
                return null;
            }
            ResourceStatus s = r.getStatus();
            return new Counted(r.getMetadata().getKind(), s.getSyncStatus(),
                s.getHealth() == null ? null : s.getHealth().getStatus());
        }

        static String series(Counted c) {
            return c == null ? null
                : ReconcileMetrics.series(c.kind, c.sync.name(), c.health == null ? "Unknown" : c.health.name());
        }
    }

    /** Key, generation and attempt ride in the MDC, so both log formats carry them as fields. */
    private static void log(String key, Resource res, ReconcileState st, Decision decision) {
        boolean stalled = decision instanceof Decision.Stalled;
        if (!LOG.isDebugEnabled() && !stalled) {
            return;
        }
        try (var k = MDC.putCloseable("key", key);
             var g = MDC.putCloseable("generation", Long.toString(res.getMetadata().getGeneration()));
             var a = MDC.putCloseable("attempt", st.getLastCorrection() == null ? "0"
                 : Integer.toString(st.getLastCorrection().getAttempt()))) {
            if (stalled) {
                LOG.warn("reconcile {} generation {}: {}", key, res.getMetadata().getGeneration(), decision);
            } else {
                LOG.debug("reconcile {} generation {}: {}", key, res.getMetadata().getGeneration(), decision);
            }
        }
    }

    /**
     * The planner's input, with {@code specTree} the frozen tree of the stored Resource's spec (null for an orphan's
     * placeholder, which has no spec to plan). Once converged, the spec, the last-applied spec and the observation are
     * one shared instance (see {@link ReconcileStateSerde}), so that tree serves each of them that is that instance;
     * the trees are immutable.
     */
    private static PlanInput planInput(String key, ReconcileState st, Resource res, ReconcilePolicy policy,
                                       ObservedView observed, Object specTree, Instant now) {
        ObjectMeta m = res.getMetadata();
        Value applied = st.getLastApplied();
        return PlanInput.builder().key(key).uid(m.getUid()).generation(m.getGeneration())
            .desiredSpec(isOrphanPlaceholder(res) ? null : specTree)
            .deleting(m.getDeletionTimestamp() != null || st.getDesiredDeleted()).observed(observed)
            .lastApplied(applied == res.getSpec() ? specTree : AvroMapping.frozenTree(applied))
            .lastCorrection(AvroMapping.lastCorrection(st.getLastCorrection(), st.getLastCorrectionFingerprint(),
                st.getLastPlannedAttempt()))
            .now(now).policy(policy).build();
    }

    private boolean ensureOrphanPlaceholder(String key, ReconcileState st, ReconcilePolicy policy, ObservedView observed,
                                            Instant now) {
        ObservedState obs = st.getObserved();
        if (obs == null || !observed.isPresent() || policy.orphanPolicy() == OrphanPolicy.IGNORE) {
            return false;
        }
        ObjectMeta meta = ObjectMeta.newBuilder().setKind(obs.getKind()).setNamespace(obs.getNamespace())
            .setName(obs.getName()).setUid(obs.getUid() == null ? UUID.randomUUID().toString() : obs.getUid())
            .setGeneration(0).setCreationTimestamp(now).build();
        st.setResource(Resource.newBuilder().setMetadata(meta).setSpec(new Value(null))
            .setStatus(AvroMapping.initialStatus(now)).build());
        return true;
    }

    /** The outcome a reconcile's duration is tagged with. */
    private static String result(Decision decision) {
        if (decision instanceof Decision.Emit) {
            return ReconcileMetrics.RESULT_CORRECTION;
        }
        if (decision instanceof Decision.InSync) {
            return ReconcileMetrics.RESULT_CONVERGED;
        }
        return decision instanceof Decision.Stalled ? ReconcileMetrics.RESULT_ERROR : ReconcileMetrics.RESULT_NOOP;
    }

    private Correction emitCorrection(String key, ReconcileState st, Resource res, PlannedCorrection pc, Instant now,
                                      ReconcileEngine.Output out) {
        ObjectMeta m = res.getMetadata();
        boolean delete = pc.action() == io.statesync.reconciler.Action.DELETE;
        Correction c = new Correction(UUID.randomUUID().toString(), m.getKind(), m.getNamespace(), m.getName(),
            m.getUid(), AvroMapping.sameName(pc.action(), io.statesync.avro.Action.class), AvroMapping.sameName(pc.reason(), io.statesync.avro.Reason.class),
            m.getGeneration(), nextAttempt(st, m.getGeneration()), AvroMapping.patch(pc.patch()),
            delete || isOrphanPlaceholder(res) ? null : res.getSpec(), pc.issuedAt(), pc.deadline());
        out.correction(key, c, now.toEpochMilli());
        if (st.getLastCorrection() == null || !isOutstanding(res.getStatus())) {
            metrics.inflightDelta(1);
        }
        st.setLastCorrection(forState(c));
        st.setLastCorrectionFingerprint(pc.fingerprint());
        st.setLastPlannedAttempt(pc.attempt());
        if (!delete && !isOrphanPlaceholder(res)) {
            st.setLastApplied(res.getSpec());
        }
        metrics.correctionEmitted(m.getKind(), c.getAction().name(), c.getReason().name());
        return c;
    }

    /**
     * The state keeps the last correction for its identity, attempt and deadline, and its patch so that users can see
     * what was sent (the diff endpoint shows it); a retry is planned afresh. A CREATE's patch repeats the whole spec,
     * which the correction's desiredSpec already holds, so it is not stored twice. Built field by field: the generated
     * copy constructor would deep-copy the spec.
     */
    private static Correction forState(Correction c) {
        return new Correction(c.getCommandId(), c.getKind(), c.getNamespace(), c.getName(), c.getUid(), c.getAction(),
            c.getReason(), c.getGeneration(), c.getAttempt(), c.getAction() == Action.CREATE ? List.of() : c.getPatch(),
            c.getDesiredSpec(), c.getIssuedAt(), c.getDeadline());
    }

    /**
     * Correction.attempt numbers the corrections of one (uid, generation), so that consumers can deduplicate on that
     * triple even when a new plan or a new drift episode starts the planner's own count again.
     */
    private static int nextAttempt(ReconcileState st, long generation) {
        if (st.getAttemptGeneration() != generation) {
            st.setAttemptGeneration(generation);
            st.setLastEmittedAttempt(0);
        }
        st.setLastEmittedAttempt(st.getLastEmittedAttempt() + 1);
        return st.getLastEmittedAttempt();
    }

    private static boolean isOutstanding(ResourceStatus s) {
        return s.getSyncStatus() == io.statesync.avro.SyncStatus.Progressing
            || s.getSyncStatus() == io.statesync.avro.SyncStatus.Deleting;
    }

    private Resource publish(String key, ReconcileState st, Resource res, StatusView prev, StatusView next,
                             boolean resourceChanged, Instant now, ReconcileEngine.Output out) {
        CorrectionRef ref = st.getLastCorrection() != null ? AvroMapping.ref(st.getLastCorrection())
            : res.getStatus().getLastCorrection();
        ObservedState o = st.getObserved();
        boolean statusChanged = !next.sameExceptHeartbeat(prev) || !Objects.equals(ref, res.getStatus().getLastCorrection())
            || reportedChanged(res.getStatus(), o);
        boolean quiet = !resourceChanged && !statusChanged && st.getUnpublishedResourceVersion() == null;
        if (quiet && rebuildsAsStored(res.getStatus())) {
            // Only the heartbeat moved: the status built afresh would hold what the stored one does, but for it.
            res.getStatus().setLastObservedAt(next.lastObservedAt());
            return null;
        }
        res.setStatus(AvroMapping.status(next, ref, res.getStatus().getConditions(), res.getStatus().getHealth(), o));
        if (quiet) {
            return null;
        }
        res.getMetadata().setResourceVersion(publishVersion(st));
        out.resource(key, res, now.toEpochMilli());
        return res;
    }

    /**
     * Whether the observation reports another status or other conditions than the stored Resource shows: a report
     * that changes only its status (a controller's readyReplicas) publishes the Resource too. The same instances
     * compare at once, as they do while the report stays the one the Resource shows.
     */
    private static boolean reportedChanged(ResourceStatus s, ObservedState o) {
        Value reported = o == null ? null : o.getStatus();
        List<io.statesync.avro.Condition> conditions = o == null ? List.of() : o.getConditions();
        return (reported != s.getReported() && !Objects.equals(reported, s.getReported()))
            || (conditions != s.getReportedConditions() && !Objects.equals(conditions, s.getReportedConditions()));
    }

    /**
     * Whether {@link AvroMapping#status} keeps every part of {@code s} when the views are equal: it reuses a stored
     * condition only without an observedGeneration, and a stored health only when there is one.
     */
    private static boolean rebuildsAsStored(ResourceStatus s) {
        if (s.getHealth() == null) {
            return false;
        }
        for (io.statesync.avro.Condition c : s.getConditions()) {
            if (c.getObservedGeneration() != null) {
                return false;
            }
        }
        return true;
    }

    private void transitions(String key, ReconcileState st, Resource res, Decision decision, StatusView prev,
                             StatusView next, Instant now, ReconcileEngine.Output out) {
        String kind = res.getMetadata().getKind();
        if (prev.syncStatus() == next.syncStatus()) {
            return;
        }
        if (prev.syncStatus() == SyncStatus.Progressing || prev.syncStatus() == SyncStatus.Deleting) {
            metrics.inflightDelta(-1);
        }
        long ts = now.toEpochMilli();
        switch (next.syncStatus()) {
            case Synced -> {
                Optional<Duration> took = StatusCalculator.convergenceTime(prev, next, Instant.ofEpochMilli(st.getDesiredWrittenAt()));
                took.ifPresent(d -> metrics.converged(kind, d.toMillis()));
                out.event(key, events.about(EventType.Converged, "Synced", "observed matches desired",
                    res, took.map(Duration::toMillis).orElse(null), ts), ts);
            }
            case Stalled -> {
                stepEvents.applyFailed(key, res, decision, st.getObserved(), ts, out);
                out.event(key, events.about(EventType.Warning, "Stalled", decision instanceof Decision.Stalled s
                    && s.terminal() ? "the agent reported a terminal error; no corrections until the spec changes"
                    : "corrections did not converge after " + next.attempts() + " attempts", res, null, ts), ts);
            }
            case Orphaned -> out.event(key, events.about(EventType.Warning, "OrphanDetected",
                "observed resource has no desired counterpart", res, null, ts), ts);
            default -> { }
        }
    }

    /** Deleting, and the agent says the resource is gone (or no agent ever reported it). */
    /**
     * What an API-only kind's object is observed as: its spec at its generation, or gone once it is being deleted, so
     * that it is Synced at once and its deletion waits only for its finalizers.
     */
    private static ObservedView apiOnlyObserved(Resource res, Object specTree, Instant now) {
        return res.getMetadata().getDeletionTimestamp() != null ? ObservedView.absent(now)
            : ObservedView.present(specTree, res.getMetadata().getGeneration(), now, null);
    }

    private static boolean isDeletionComplete(Resource res, ObservedView observed) {
        boolean deleting = res.getMetadata().getDeletionTimestamp() != null || isOrphanPlaceholder(res);
        return deleting && !observed.isPresent();
    }

    private Resource completeDeletion(String key, ReconcileState st, Resource res, ReconcilePolicy policy,
                                      boolean resourceChanged, Instant now, ReconcileEngine.Output out) {
        List<String> remaining = GenerationRules.finalizersAfterObservedDeletion(res.getMetadata().getFinalizers(), policy);
        long ts = now.toEpochMilli();
        if (!remaining.isEmpty() && !isOrphanPlaceholder(res)) {
            // A finalizer that is not statesync's holds the Resource; one just changed (its deletion requested) is shown.
            if (remaining.equals(res.getMetadata().getFinalizers()) && !resourceChanged) {
                return null;
            }
            res.getMetadata().setFinalizers(remaining);
            res.getMetadata().setResourceVersion(publishVersion(st));
            out.resource(key, res, ts);
            return res;
        }
        out.deleted(key, res, ts);
        out.event(key, events.about(EventType.Normal, "Deleted", "deletion completed", res, null, ts), ts);
        if (isOutstanding(res.getStatus())) {
            metrics.inflightDelta(-1);
        }
        st.setResource(null);
        st.setUnpublishedResourceVersion(null);
        st.setLastCorrection(null);
        st.setLastApplied(null);
        return null;
    }

    /** The version admission already gave (and answered with) to a not yet published change, else a new one. */
    private String publishVersion(ReconcileState st) {
        String admitted = st.getUnpublishedResourceVersion();
        st.setUnpublishedResourceVersion(null);
        return admitted != null ? admitted : stores.nextResourceVersion();
    }

    /** Persist the state (or drop it when nothing is left) and move the key's timer. */
    private void finish(String key, ReconcileState st, Decision decision, ReconcilePolicy policy, long now) {
        if (st.getResource() == null && (st.getObserved() == null || st.getObserved().getState() == null)) {
            stores.delete(key, st);
            return;
        }
        long due = 0;
        if (decision instanceof Decision.Wait w) {
            due = w.until().toEpochMilli();
        } else if (decision instanceof Decision.Emit e) {
            due = e.correction().deadline().toEpochMilli();
        }
        due = Math.min(Math.min(due == 0 ? Long.MAX_VALUE : due, staleAt(st, policy, now)), resyncAt(st, policy, now));
        long next = due == Long.MAX_VALUE ? 0 : due;
        long armed = st.getNextCheckAt();
        // Lazy: a timer only ever moves earlier here. One armed no later than needed stays, and when it fires early
        // the timer walk recomputes and re-arms; so an observation that pushes the staleness deadline out writes no
        // timer-index records.
        if (armed <= 0 || (next > 0 && next < armed)) {
            stores.reschedule(key, armed, next);
            st.setNextCheckAt(next);
        }
        stores.put(key, st);
    }

    /**
     * When the key is next due for a resync. A reconcile at least one resync period after the last resync counts as
     * one, so the timer index (not a sweep that decodes every state) drives resyncs.
     */
    private static long resyncAt(ReconcileState st, ReconcilePolicy policy, long now) {
        long period = policy.resyncPeriod().toMillis();
        if (st.getLastResyncAt() <= 0 || now - st.getLastResyncAt() >= period) {
            st.setLastResyncAt(now);
        }
        return st.getLastResyncAt() + period;
    }

    /** When the ObservedStale condition will flip, if it has not yet; MAX_VALUE when no timer is needed for it. */
    private static long staleAt(ReconcileState st, ReconcilePolicy policy, long now) {
        ObservedState o = st.getObserved();
        Resource r = st.getResource();
        if (o == null || r == null) {
            return Long.MAX_VALUE;
        }
        // +1: an observation becomes stale strictly after the bound, so a timer exactly at the bound would see it fresh.
        long at = o.getObservedAt().toEpochMilli() + policy.stalenessBound().toMillis() + 1;
        return at > now ? at : Long.MAX_VALUE;
    }
}
