package io.statesync.launcher;

import java.util.HashMap;
import java.util.Map;

import io.statesync.agent.AgentConfig;
import io.statesync.config.AppConfig;
import io.statesync.simulator.SimulatedFleet;
import io.statesync.simulator.SimulatorConfig;

/**
 * The demo agent of {@code statesync up}: a WebApp controller that renders each WebApp's Deployment and Service as
 * its children, and the fleet simulator managing those (or the kinds {@code agent.kinds} names), applying corrections with
 * some latency and failures, drifting now and then, and reporting a run-time status (replicas becoming ready, a crash
 * loop now and then that recovers) that the seeded demo policy's health rules judge, so that the loop and every health
 * are visible without a real actuator.
 * Every {@code simulator.*} and {@code agent.*} key can be overridden with {@code -D}.
 */
final class DemoAgent {

    static final Map<String, Object> DEMO_DEFAULTS = Map.of(
        SimulatorConfig.LATENCY, "exponential:200ms",
        SimulatorConfig.FAILURE_RATE, 0.05,
        SimulatorConfig.DRIFT_INTERVAL_MS, 30_000L,
        SimulatorConfig.READY_STEP_MS, 2_000L,
        SimulatorConfig.DEGRADE_INTERVAL_MS, 90_000L,
        AgentConfig.REPORTER, "demo-agent",
        AgentConfig.GROUP_ID, "statesync-demo-agent");

    private DemoAgent() {
    }

    static SimulatedFleet start(AppConfig app, Map<String, String> overrides) {
        Map<String, Object> props = new HashMap<>(DEMO_DEFAULTS);
        props.put(AgentConfig.BOOTSTRAP_SERVERS, String.join(",", app.getList(AppConfig.BOOTSTRAP_SERVERS)));
        props.put(AgentConfig.SCHEMA_REGISTRY_URL, app.getString(AppConfig.SCHEMA_REGISTRY_URL));
        props.put(AgentConfig.TOPIC_PREFIX, app.topicPrefix());
        overrides.forEach((k, v) -> {
            if (k.startsWith("simulator.") || k.startsWith("agent.")) {
                props.put(k, v);
            }
        });
        return SimulatedFleet.startWithWebApps(props);
    }
}
