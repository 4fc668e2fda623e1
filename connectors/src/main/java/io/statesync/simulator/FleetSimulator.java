package io.statesync.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.statesync.agent.Observation;
import io.statesync.agent.ResourceAgent;
import io.statesync.agent.ResourceRef;
import io.statesync.avro.Correction;
import io.statesync.avro.FieldOp;
import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.Op;
import io.statesync.reconciler.PatchOp;
import io.statesync.reconciler.Patches;
import io.statesync.schemas.Values;

/**
 * An in-memory fleet: a {@link ResourceAgent} whose world is a map of resources. Applies take a configurable
 * latency and fail at a configurable rate; {@link #drift()} changes a field of a random resource behind statesync's
 * back. With {@link SimulatorSettings#simulatesStatus()} it also reports a run-time status ({@link SimulatedStatus}):
 * replicas becoming ready after each apply, and now and then a crash loop that recovers. Every random choice comes
 * from one seeded generator, so a single-threaded run replays exactly.
 */
public final class FleetSimulator implements ResourceAgent {

    /** One simulated resource: its tree plus the uid and generation last applied to it. */
    public record SimResource(ResourceRef ref, Object state, String uid, long generation) {
    }

    /** How the simulator waits; tests pass a recording sleeper instead of sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final SimulatorSettings settings;
    private final Sleeper sleeper;
    private final SplittableRandom random;
    private final Map<String, SimResource> world = new ConcurrentHashMap<>();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong drifted = new AtomicLong();
    private final SimulatedStatus status;

    public FleetSimulator(SimulatorSettings settings) {
        this(settings, d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000), System::currentTimeMillis);
    }

    public FleetSimulator(SimulatorSettings settings, Sleeper sleeper) {
        this(settings, sleeper, System::currentTimeMillis);
    }

    /** {@code clock} gives the milliseconds the simulated status (replicas becoming ready, crash loops) follows. */
    public FleetSimulator(SimulatorSettings settings, Sleeper sleeper, LongSupplier clock) {
        this.settings = settings;
        this.sleeper = sleeper;
        this.random = new SplittableRandom(settings.seed());
        this.status = new SimulatedStatus(settings, clock);
    }

    @Override
    public Set<String> kinds() {
        return settings.kinds();
    }

    @Override
    public Observation observe(ResourceRef ref) {
        SimResource r = world.get(ref.key());
        return r == null ? Observation.absent(ref) : observation(r);
    }

    @Override
    public Collection<Observation> list() {
        List<Observation> out = new ArrayList<>(world.size());
        world.values().forEach(r -> out.add(observation(r)));
        return out;
    }

    @Override
    public void apply(Correction c) throws InterruptedException, SimulatedFailureException {
        Duration latency;
        boolean fail;
        synchronized (random) {
            latency = settings.latency().next(random);
            fail = settings.failureRate() > 0 && random.nextDouble() < settings.failureRate();
        }
        if (!latency.isZero()) {
            sleeper.sleep(latency);
        }
        if (fail) {
            failed.incrementAndGet();
            throw new SimulatedFailureException("simulated failure applying " + c.getAction() + " (attempt "
                + c.getAttempt() + ")");
        }
        ResourceRef ref = new ResourceRef(c.getKind(), c.getNamespace(), c.getName());
        switch (c.getAction()) {
            case DELETE -> {
                world.remove(ref.key());
                status.forget(ref.key());
            }
            case CREATE, UPDATE -> {
                world.compute(ref.key(), (k, old) -> new SimResource(ref, target(old, c), c.getUid(), c.getGeneration()));
                status.applied(ref.key());
            }
            default -> throw new IllegalStateException("unreachable: " + c.getAction());
        }
    }

    /** The patch applied to what exists; the whole desired spec when there is nothing to patch. */
    private static Object target(SimResource old, Correction c) {
        if (old == null || old.state() == null || c.getPatch().isEmpty()) {
            return c.getDesiredSpec() == null ? Map.of() : Values.toJava(c.getDesiredSpec());
        }
        return Patches.apply(old.state(), patchOps(c.getPatch()));
    }

    static List<PatchOp> patchOps(List<FieldOp> patch) {
        List<PatchOp> ops = new ArrayList<>(patch.size());
        for (FieldOp op : patch) {
            ops.add(new PatchOp(Op.valueOf(op.getOp().name()), new FieldPath(op.getPath()),
                op.getValue() == null ? null : Values.toJava(op.getValue())));
        }
        return ops;
    }

    /**
     * Changes the drift field of one random resource: a number is bumped by 1 to 3, anything else is replaced.
     * Returns the resource that drifted, or empty when the world is empty.
     */
    public Optional<ResourceRef> drift() {
        List<String> keys = new ArrayList<>(world.keySet());
        if (keys.isEmpty()) {
            return Optional.empty();
        }
        keys.sort(null); // map order is not stable; sorting keeps a seeded run replayable
        String key;
        long bump;
        synchronized (random) {
            key = keys.get(random.nextInt(keys.size()));
            bump = 1 + random.nextInt(3);
        }
        SimResource r = world.computeIfPresent(key, (k, old) -> drifted(old, bump));
        if (r == null) {
            return Optional.empty();
        }
        drifted.incrementAndGet();
        return Optional.of(r.ref());
    }

    private SimResource drifted(SimResource old, long bump) {
        FieldPath field = FieldPath.of(settings.driftField());
        Object current = old.state() instanceof Map<?, ?> m ? m.get(settings.driftField()) : null;
        Object next = current instanceof Number n ? (Object) (n.longValue() + bump) : "drifted-" + bump;
        Object state = Patches.apply(old.state(), List.of(PatchOp.set(field, next)));
        return new SimResource(old.ref(), state, old.uid(), old.generation());
    }

    /**
     * Moves the simulated status on: now and then a random resource starts to crash-loop. Returns the resources whose
     * status changed since the last tick, which an agent reports at once; empty when the status is not simulated.
     */
    public List<ResourceRef> tick() {
        if (!settings.simulatesStatus()) {
            return List.of();
        }
        List<String> keys = new ArrayList<>(world.keySet());
        keys.sort(null); // map order is not stable; sorting keeps a seeded run replayable
        synchronized (random) {
            status.maybeDegrade(keys, random);
        }
        List<ResourceRef> changed = new ArrayList<>();
        for (String key : keys) {
            SimResource r = world.get(key);
            if (r != null && status.changed(key, r.state())) {
                changed.add(r.ref());
            }
        }
        return changed;
    }

    /** Puts a resource into the world as if someone outside statesync created or changed it. */
    public void put(ResourceRef ref, Object state) {
        world.compute(ref.key(), (k, old) -> new SimResource(ref, state, old == null ? null : old.uid(),
            old == null ? 0L : old.generation()));
    }

    public void remove(ResourceRef ref) {
        world.remove(ref.key());
    }

    public Optional<SimResource> get(ResourceRef ref) {
        return Optional.ofNullable(world.get(ref.key()));
    }

    public int size() {
        return world.size();
    }

    public long failedCount() {
        return failed.get();
    }

    public long driftedCount() {
        return drifted.get();
    }

    public SimulatorSettings settings() {
        return settings;
    }

    private Observation observation(SimResource r) {
        return new Observation(r.ref(), r.state(), status.of(r.ref().key(), r.state()), r.uid(), r.generation());
    }

    /** The failure a simulated apply throws; shows up as the ApplyFailed condition's reason. */
    public static final class SimulatedFailureException extends Exception {
        public SimulatedFailureException(String message) {
            super(message);
        }
    }
}
