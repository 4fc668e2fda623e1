package io.statesync.simulator;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** The simulator's settings as config keys, so {@code statesync up} and benchmarks can pass them as properties. */
public final class SimulatorConfig extends AbstractConfig {

    public static final String KINDS = "simulator.kinds";
    public static final String LATENCY = "simulator.latency";
    public static final String FAILURE_RATE = "simulator.failure.rate";
    public static final String DRIFT_INTERVAL_MS = "simulator.drift.interval.ms";
    public static final String DRIFT_FIELD = "simulator.drift.field";
    public static final String SEED = "simulator.seed";
    public static final String READY_STEP_MS = "simulator.ready.step.ms";
    public static final String DEGRADE_INTERVAL_MS = "simulator.degrade.interval.ms";

    private static final ConfigDef DEF = new ConfigDef()
        .define(KINDS, Type.LIST, "", Importance.MEDIUM, "Kinds the fleet manages; empty means every kind.")
        .define(LATENCY, Type.STRING, "exponential:50ms", Importance.MEDIUM,
            "Apply latency: zero, fixed:<d>, uniform:<mean> or exponential:<mean>, with d like 50ms or 1s.")
        .define(FAILURE_RATE, Type.DOUBLE, 0.0, ConfigDef.Range.between(0.0, 1.0), Importance.MEDIUM,
            "Probability that an apply fails.")
        .define(DRIFT_INTERVAL_MS, Type.LONG, 0L, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
            "Every this many ms one random resource drifts; 0 disables drift.")
        .define(DRIFT_FIELD, Type.STRING, "replicas", Importance.LOW, "Top-level field that drift changes.")
        .define(SEED, Type.LONG, 42L, Importance.LOW, "Seed of the simulator's random choices.")
        .define(READY_STEP_MS, Type.LONG, 0L, ConfigDef.Range.atLeast(0), Importance.LOW,
            "After an apply, one more replica becomes ready every this many ms (status.readyReplicas); 0 reports no status.")
        .define(DEGRADE_INTERVAL_MS, Type.LONG, 0L, ConfigDef.Range.atLeast(0), Importance.LOW,
            "Every this many ms one random resource crash-loops (status.crashLooping) for half as long; 0 disables it.");

    public SimulatorConfig(Map<String, ?> props) {
        super(DEF, props, false);
    }

    public static ConfigDef configDef() {
        return DEF;
    }

    public SimulatorSettings settings() {
        return new SimulatorSettings(new HashSet<>(getList(KINDS)), LatencyModel.parse(getString(LATENCY)),
            getDouble(FAILURE_RATE), Duration.ofMillis(getLong(DRIFT_INTERVAL_MS)), getString(DRIFT_FIELD),
            getLong(SEED), Duration.ofMillis(getLong(READY_STEP_MS)), Duration.ofMillis(getLong(DEGRADE_INTERVAL_MS)));
    }
}
