package io.statesync.simulator;

import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.statesync.agent.AgentConfig;
import io.statesync.agent.AgentSerdes;
import io.statesync.agent.ChildWriter;
import io.statesync.agent.StatesyncAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo agent: a {@link FleetSimulator} run by a {@link StatesyncAgent}, with a timer that makes a random
 * resource drift and reports it at once. {@code statesync up} starts one; tests and benchmarks too.
 */
public final class SimulatedFleet implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatedFleet.class);

    private final FleetSimulator simulator;
    private final StatesyncAgent agent;
    private final ScheduledExecutorService drift;
    /** Agents that run beside the simulator (the WebApp controller) and stop with it. */
    private final List<AutoCloseable> companions = new CopyOnWriteArrayList<>();
    /** How often the simulated status moves on and its changes are reported. */
    private static final long STATUS_TICK_MS = 1_000;

    public SimulatedFleet(FleetSimulator simulator, StatesyncAgent agent) {
        this.simulator = simulator;
        this.agent = agent;
        this.drift = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "statesync-simulator-drift");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts a fleet from {@link AgentConfig} and {@link SimulatorConfig} keys; the simulator's kinds apply unless
     * {@code agent.kinds} is set. The default reporter is {@code fleet-simulator}.
     */
    public static SimulatedFleet start(Map<String, ?> props) {
        Map<String, Object> withDefaults = new HashMap<>(props);
        withDefaults.putIfAbsent(AgentConfig.REPORTER, "fleet-simulator");
        withDefaults.putIfAbsent(AgentConfig.GROUP_ID, "statesync-fleet-simulator");
        AgentConfig agentConfig = new AgentConfig(withDefaults);
        FleetSimulator simulator = new FleetSimulator(new SimulatorConfig(withDefaults).settings());
        SimulatedFleet fleet = new SimulatedFleet(simulator, AgentSerdes.agent(simulator, agentConfig));
        fleet.start();
        return fleet;
    }

    /**
     * {@link #start(Map)} for every kind but WebApp, plus a {@link WebAppAgent} that renders each WebApp's Deployment
     * and Service, which the simulator then applies: the demo fleet of {@code statesync up}. {@code agent.kinds}, when
     * set, names the simulator's kinds (default Deployment and Service).
     */
    public static SimulatedFleet startWithWebApps(Map<String, ?> props) {
        Map<String, Object> fleetProps = new HashMap<>(props);
        fleetProps.putIfAbsent(AgentConfig.KINDS, "Deployment,Service");
        SimulatedFleet fleet = start(fleetProps);
        Map<String, Object> webProps = new HashMap<>(props);
        webProps.remove(AgentConfig.KINDS);
        webProps.put(AgentConfig.REPORTER, orDefault(props, AgentConfig.REPORTER, "fleet-simulator") + "-webapps");
        webProps.put(AgentConfig.GROUP_ID, orDefault(props, AgentConfig.GROUP_ID, "statesync-fleet-simulator") + "-webapps");
        AgentConfig config = new AgentConfig(webProps);
        ChildWriter children = ChildWriter.create(config, AgentSerdes.desired(config));
        StatesyncAgent webapps = AgentSerdes.agent(new WebAppAgent(children), config);
        fleet.companions.add(children);
        fleet.companions.add(webapps);
        webapps.start();
        return fleet;
    }

    private static String orDefault(Map<String, ?> props, String key, String fallback) {
        Object v = props.get(key);
        return v == null ? fallback : v.toString();
    }

    public void start() {
        agent.start();
        long periodMs = simulator.settings().driftPeriod().toMillis();
        if (periodMs > 0) {
            drift.scheduleAtFixedRate(this::driftOnce, periodMs, periodMs, TimeUnit.MILLISECONDS);
        }
        if (simulator.settings().simulatesStatus()) {
            drift.scheduleAtFixedRate(this::reportStatusChanges, STATUS_TICK_MS, STATUS_TICK_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Reports every resource whose simulated status changed, as a real agent's watch on pods would. */
    public void reportStatusChanges() {
        simulator.tick().forEach(this::report);
    }

    /** Drifts one random resource and reports it, as a real agent's watch would. */
    public void driftOnce() {
        simulator.drift().ifPresent(this::report);
    }

    private void report(io.statesync.agent.ResourceRef ref) {
        agent.report(ref).whenComplete((ok, error) -> {
            if (error != null) {
                LOG.warn("Reporting {} failed", ref, error);
            }
        });
    }

    public FleetSimulator simulator() {
        return simulator;
    }

    public StatesyncAgent agent() {
        return agent;
    }

    @Override
    public void close() {
        drift.shutdownNow();
        // The WebApp agent first (it writes through its child writer), then the writer, then the simulator's agent.
        for (int i = companions.size() - 1; i >= 0; i--) {
            try {
                companions.get(i).close();
            } catch (Exception e) {
                LOG.warn("Stopping {} failed", companions.get(i), e);
            }
        }
        agent.close();
    }
}
