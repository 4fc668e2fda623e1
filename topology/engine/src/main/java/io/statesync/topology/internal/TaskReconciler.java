package io.statesync.topology.internal;

import java.time.Instant;
import java.util.SplittableRandom;

import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.gc.DependentsIndex;
import io.statesync.gc.GarbageCollection;
import io.statesync.reconciler.CorrectionPlanner;
import io.statesync.topology.PolicyCatalog;
import io.statesync.topology.TopologyNames;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * The one reconciler of a stream task, shared by all of the task's processors (admission, observation, the dependents
 * index and collect commands) through {@link TaskReconcilers}: it owns the task's stores, its policy catalog, its
 * correction planner and rate limiter, its events and where its outputs go, so that whatever input causes a reconcile,
 * the key is planned by the same planner and paced by the same token bucket per kind.
 */
final class TaskReconciler {

    /** Why a key is reconciled, and the wall-clock instant of the input or timer that asks for it. */
    record Cause(Why why, long now) {

        static Cause of(Why why, long now) {
            return new Cause(why, now);
        }
    }

    /** The inputs and timers that reconcile a key; some of them changed the stored Resource themselves. */
    enum Why {
        /** An admitted write or delete changed the Resource. */
        ADMITTED(true),
        /** The garbage collector changed the stored Resource (its owner references or finalizers). */
        COLLECTED(true),
        /** A write that admission answered earlier and a batch has not published yet, before the next one. */
        EARLIER_WRITE(false),
        OBSERVED(false),
        /** The key's dependents changed, which the health rules read as {@code children}. */
        DEPENDENTS(false),
        /** The coalesced batch of keys that had inputs since the last one. */
        BATCH(false),
        TIMER(false),
        RESYNC(false);

        final boolean resourceChanged;

        Why(boolean resourceChanged) {
            this.resourceChanged = resourceChanged;
        }
    }

    private final StateStores stores;
    private final PolicyCatalog policies;
    private final DependentsIndex ownership;
    private final Events events = new Events();
    private final ReconcileStep step;
    private final ResourceCounter counter;
    private final ReconcileEngine.Output out;
    private final String task;

    TaskReconciler(TopologyContext ctx, StateStores stores, PolicyCatalog policies, CorrectionPlanner planner,
                   DependentsIndex ownership, ReconcileEngine.Output sinks, String task) {
        this.stores = stores;
        this.policies = policies;
        this.ownership = ownership;
        this.task = task;
        this.out = new IndexingOutput(sinks, ownership);
        this.counter = new ResourceCounter(ctx.metrics(), task, stores.countingSource(), ResourceCounter.SLICE_KEYS,
            System::nanoTime);
        this.step = new ReconcileStep(stores, planner, ctx.metrics(), events, counter, ownership::children,
            new CorrectionRateLimiter(ctx.config().getDouble(AppConfig.CORRECTIONS_RATE_PER_KIND),
                ctx.config().getInt(AppConfig.CORRECTIONS_BURST_PER_KIND)));
    }

    /** The task's reconciler from the stores and sinks of {@code pc}; {@link TaskReconcilers} calls it once per task. */
    static TaskReconciler create(TopologyContext ctx, ProcessorContext<Object, Object> pc) {
        PolicyCatalog policies = new PolicyCatalog(pc.getStateStore(TopologyNames.KINDS_STORE),
            ctx.serdes().kindPolicy().deserializer(), ctx.topics().kinds(), PolicyCatalog.definitionLimits(ctx.config()));
        return new TaskReconciler(ctx, new StateStores(pc), policies, new CorrectionPlanner(new SplittableRandom()),
            GarbageCollection.dependentsIndex(pc, ctx.metrics().collector()), new ForwardingOutput(pc, ctx),
            pc.taskId().toString());
    }

    /**
     * Reconciles {@code key} from its stored state and returns the Resource it published, or null when it published
     * none. A caller that created or replaced the key's state stores it first ({@link #keep}); one that changed the
     * instance {@link #state} returned needs not.
     */
    Resource reconcile(String key, Cause cause) {
        ReconcileState st = stores.get(key);
        if (st == null) {
            return null;
        }
        return step.run(key, st, policies.forKind(kindOf(key)), Instant.ofEpochMilli(cause.now()),
            cause.why().resourceChanged, out);
    }

    /** The key's decoded state, which the caller may change in place before it reconciles the key. */
    ReconcileState state(String key) {
        return stores.get(key);
    }

    /** Keeps {@code st} as the key's state. */
    void keep(String key, ReconcileState st) {
        stores.put(key, st);
    }

    StateStores stores() {
        return stores;
    }

    /** The task's share of statesync_resources, recounted from its store when the task is assigned. */
    ResourceCounter counter() {
        return counter;
    }

    PolicyCatalog policies() {
        return policies;
    }

    Events events() {
        return events;
    }

    DependentsIndex ownership() {
        return ownership;
    }

    /** Where the task's Resources, corrections and events go, with the dependents index kept from what is published. */
    ReconcileEngine.Output output() {
        return out;
    }

    String task() {
        return task;
    }

    static String kindOf(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(0, slash);
    }
}
