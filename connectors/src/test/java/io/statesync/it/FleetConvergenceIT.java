package io.statesync.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.statesync.agent.AgentConfig;
import io.statesync.agent.AgentSerdes;
import io.statesync.agent.ResourceRef;
import io.statesync.agent.StatesyncAgent;
import io.statesync.avro.Reason;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.simulator.FleetSimulator;
import io.statesync.simulator.SimulatedFleet;
import io.statesync.simulator.SimulatorSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The agent library and the fleet simulator against the running topology, on a real broker and registry. */
@ExtendWith(EmbeddedClusterExtension.class)
class FleetConvergenceIT {

    private static final Duration CONVERGE = Duration.ofSeconds(120);

    private StatesyncHarness statesync;
    private SimulatedFleet fleet;

    @BeforeEach
    void startStatesync(EmbeddedCluster cluster, @TempDir Path stateDir) {
        statesync = new StatesyncHarness(cluster.bootstrapServers(), cluster.registryUrl(), stateDir);
        await().atMost(Duration.ofSeconds(60)).until(statesync::isRunning);
    }

    @AfterEach
    void stop() {
        if (fleet != null) {
            fleet.close();
        }
        statesync.close();
    }

    @Test
    void shouldConvergeAThousandResourcesAndCorrectInjectedDrift() {
        fleet = startFleet(SimulatorSettings.defaults());
        for (int i = 0; i < 1000; i++) {
            statesync.putDesired("WebApp", "default", "app-" + i, spec(2));
        }
        statesync.flush();

        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(500))
            .until(() -> statesync.count(r -> StatesyncHarness.synced(r, 1)) == 1000);
        assertThat(fleet.simulator().size()).isEqualTo(1000);

        for (int i = 0; i < 20; i++) {
            fleet.driftOnce();
        }
        assertThat(fleet.simulator().driftedCount()).isEqualTo(20);
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(500)).until(() -> fleet.simulator().list().stream()
            .allMatch(o -> ((Map<?, ?>) o.state()).get("replicas").equals(2L)));
        await().atMost(CONVERGE).until(() -> statesync.count(r -> StatesyncHarness.synced(r, 1)) == 1000);
        assertThat(statesync.resources.values()).anyMatch(r -> r.getStatus().getLastCorrection() != null
            && r.getStatus().getLastCorrection().getReason() == Reason.Drift);
    }

    @Test
    void shouldConvergeDespiteTwentyPercentApplyFailuresWithRetriesVisibleInStatus() throws Exception {
        statesync.putShortDeadline("Database", 3_000);
        fleet = startFleet(SimulatorSettings.defaults().withFailureRate(0.2).withSeed(11));
        for (int i = 0; i < 200; i++) {
            statesync.putDesired("Database", "prod", "db-" + i, spec(3));
        }
        statesync.flush();

        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(500))
            .until(() -> statesync.count(r -> StatesyncHarness.synced(r, 1)) == 200);
        assertThat(fleet.simulator().failedCount()).isPositive();
        assertThat(statesync.maxAttempt.values()).anyMatch(attempt -> attempt > 1);
        assertThat(statesync.resources.values()).anyMatch(r -> r.getStatus().getLastCorrection().getReason()
            == Reason.Retry);
    }

    @Test
    void shouldReportAResourceDeletedBehindStatesyncsBackAndRecreateIt() throws Exception {
        statesync.putShortDeadline("Cache", 3_000);
        fleet = startFleet(SimulatorSettings.defaults());
        statesync.putDesired("Cache", "default", "redis", spec(1));
        statesync.flush();
        await().atMost(CONVERGE).until(() -> statesync.count(r -> StatesyncHarness.synced(r, 1)) == 1);

        fleet.simulator().remove(ResourceRef.parse("Cache/default/redis"));
        fleet.agent().report(ResourceRef.parse("Cache/default/redis"));

        await().atMost(CONVERGE).until(() -> fleet.simulator().get(ResourceRef.parse("Cache/default/redis"))
            .isPresent());
        await().atMost(CONVERGE).until(() -> statesync.count(r -> StatesyncHarness.synced(r, 1)) == 1);
    }

    private SimulatedFleet startFleet(SimulatorSettings settings) {
        Map<String, Object> props = new HashMap<>(statesync.serdeConfig());
        props.put(AgentConfig.BOOTSTRAP_SERVERS, statesync.bootstrap);
        props.put(AgentConfig.TOPIC_PREFIX, statesync.prefix);
        props.put(AgentConfig.GROUP_ID, statesync.prefix + "fleet");
        props.put(AgentConfig.RESYNC_INTERVAL_MS, 5_000L);
        AgentConfig config = new AgentConfig(props);
        FleetSimulator simulator = new FleetSimulator(settings);
        StatesyncAgent agent = AgentSerdes.agent(simulator, config);
        SimulatedFleet started = new SimulatedFleet(simulator, agent);
        started.start();
        return started;
    }

    private static Map<String, Object> spec(int replicas) {
        return Map.of("image", "nginx:1.21", "replicas", replicas, "port", 80);
    }
}
