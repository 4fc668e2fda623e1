package io.statesync.simulator;

import java.time.Duration;
import java.util.Set;

/**
 * Knobs of the {@link FleetSimulator}.
 *
 * @param kinds        the kinds it manages; empty means every kind (the demo agent's default)
 * @param latency      how long each apply takes
 * @param failureRate  probability in [0, 1] that an apply throws
 * @param driftPeriod  how often one random resource drifts; zero disables drift
 * @param driftField   the top-level field drift changes (a number is bumped, anything else replaced)
 * @param seed         seed of every random choice, so a run can be replayed
 * @param readyStep    after an apply, one more replica becomes ready every this long (reported as
 *                     {@code status.readyReplicas}); zero reports no status at all
 * @param degradePeriod every this long one random resource crash-loops ({@code status.crashLooping}, one replica
 *                     not ready) for half the period, then recovers; zero disables it
 */
public record SimulatorSettings(Set<String> kinds, LatencyModel latency, double failureRate, Duration driftPeriod,
                                String driftField, long seed, Duration readyStep, Duration degradePeriod) {

    public SimulatorSettings {
        kinds = Set.copyOf(kinds);
        if (failureRate < 0 || failureRate > 1) {
            throw new IllegalArgumentException("failureRate must be within [0, 1]: " + failureRate);
        }
        if (driftPeriod.isNegative()) {
            throw new IllegalArgumentException("driftPeriod must not be negative: " + driftPeriod);
        }
        if (readyStep.isNegative() || degradePeriod.isNegative()) {
            throw new IllegalArgumentException("readyStep and degradePeriod must not be negative");
        }
    }

    /** Without a simulated run-time status. */
    public SimulatorSettings(Set<String> kinds, LatencyModel latency, double failureRate, Duration driftPeriod,
                             String driftField, long seed) {
        this(kinds, latency, failureRate, driftPeriod, driftField, seed, Duration.ZERO, Duration.ZERO);
    }

    /** Whether the simulator reports a run-time status that changes over time. */
    public boolean simulatesStatus() {
        return !readyStep.isZero() || !degradePeriod.isZero();
    }

    public SimulatorSettings withStatus(Duration ready, Duration degrade) {
        return new SimulatorSettings(kinds, latency, failureRate, driftPeriod, driftField, seed, ready, degrade);
    }

    /** Every kind, instant applies, no failures, no drift. */
    public static SimulatorSettings defaults() {
        return new SimulatorSettings(Set.of(), LatencyModel.zero(), 0.0, Duration.ZERO, "replicas", 42L);
    }

    public SimulatorSettings withKinds(Set<String> value) {
        return new SimulatorSettings(value, latency, failureRate, driftPeriod, driftField, seed, readyStep, degradePeriod);
    }

    public SimulatorSettings withLatency(LatencyModel value) {
        return new SimulatorSettings(kinds, value, failureRate, driftPeriod, driftField, seed, readyStep, degradePeriod);
    }

    public SimulatorSettings withFailureRate(double value) {
        return new SimulatorSettings(kinds, latency, value, driftPeriod, driftField, seed, readyStep, degradePeriod);
    }

    public SimulatorSettings withDrift(Duration period, String field) {
        return new SimulatorSettings(kinds, latency, failureRate, period, field, seed, readyStep, degradePeriod);
    }

    public SimulatorSettings withSeed(long value) {
        return new SimulatorSettings(kinds, latency, failureRate, driftPeriod, driftField, value, readyStep, degradePeriod);
    }
}
