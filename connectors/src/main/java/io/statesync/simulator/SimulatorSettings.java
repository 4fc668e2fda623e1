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
 */
public record SimulatorSettings(Set<String> kinds, LatencyModel latency, double failureRate, Duration driftPeriod,
                                String driftField, long seed) {

    public SimulatorSettings {
        kinds = Set.copyOf(kinds);
        if (failureRate < 0 || failureRate > 1) {
            throw new IllegalArgumentException("failureRate must be within [0, 1]: " + failureRate);
        }
        if (driftPeriod.isNegative()) {
            throw new IllegalArgumentException("driftPeriod must not be negative: " + driftPeriod);
        }
    }

    /** Every kind, instant applies, no failures, no drift. */
    public static SimulatorSettings defaults() {
        return new SimulatorSettings(Set.of(), LatencyModel.zero(), 0.0, Duration.ZERO, "replicas", 42L);
    }

    public SimulatorSettings withKinds(Set<String> value) {
        return new SimulatorSettings(value, latency, failureRate, driftPeriod, driftField, seed);
    }

    public SimulatorSettings withLatency(LatencyModel value) {
        return new SimulatorSettings(kinds, value, failureRate, driftPeriod, driftField, seed);
    }

    public SimulatorSettings withFailureRate(double value) {
        return new SimulatorSettings(kinds, latency, value, driftPeriod, driftField, seed);
    }

    public SimulatorSettings withDrift(Duration period, String field) {
        return new SimulatorSettings(kinds, latency, failureRate, period, field, seed);
    }

    public SimulatorSettings withSeed(long value) {
        return new SimulatorSettings(kinds, latency, failureRate, driftPeriod, driftField, value);
    }
}
