package io.statesync.simulator;

import static io.statesync.agent.AgentTestSupport.correction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.statesync.agent.Observation;
import io.statesync.agent.ResourceRef;
import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.FieldOp;
import io.statesync.avro.FieldOpType;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

class FleetSimulatorTest {

    private static final ResourceRef SHOP = ResourceRef.parse("WebApp/default/shop");
    private final List<Duration> slept = new ArrayList<>();

    @Test
    void shouldManageEveryKindByDefault() {
        assertThat(new FleetSimulator(SimulatorSettings.defaults()).kinds()).isEmpty();
    }

    @Test
    void shouldCreateFromTheDesiredSpecAndRememberUidAndGeneration() throws Exception {
        FleetSimulator sim = simulator(SimulatorSettings.defaults());
        Correction create = correction(SHOP.key(), Action.CREATE, 1, Map.of("image", "nginx:1.20", "replicas", 2));

        sim.apply(create);

        Observation seen = sim.observe(SHOP);
        assertThat(seen.state()).isEqualTo(Map.of("image", "nginx:1.20", "replicas", 2L));
        assertThat(seen.uid()).isEqualTo(create.getUid());
        assertThat(seen.observedGeneration()).isEqualTo(1);
    }

    @Test
    void shouldApplyThePatchAndKeepFieldsItDoesNotTouch() throws Exception {
        FleetSimulator sim = simulator(SimulatorSettings.defaults());
        sim.put(SHOP, Map.of("image", "nginx:1.20", "replicas", 2L, "addedByOthers", true));
        Correction update = correction(SHOP.key(), Action.UPDATE, 2, Map.of("image", "nginx:1.21", "replicas", 5));
        update.setPatch(List.of(new FieldOp(FieldOpType.SET, List.of("replicas"), Values.fromJava(5))));

        sim.apply(update);

        assertThat(sim.observe(SHOP).state())
            .isEqualTo(Map.of("image", "nginx:1.20", "replicas", 5L, "addedByOthers", true));
        assertThat(sim.observe(SHOP).observedGeneration()).isEqualTo(2);
    }

    @Test
    void shouldDeleteOnDelete() throws Exception {
        FleetSimulator sim = simulator(SimulatorSettings.defaults());
        sim.put(SHOP, Map.of("replicas", 1L));

        sim.apply(correction(SHOP.key(), Action.DELETE, 1, null));

        assertThat(sim.observe(SHOP).isAbsent()).isTrue();
        assertThat(sim.list()).isEmpty();
    }

    @Test
    void shouldFailAtTheConfiguredRateReproduciblyForASeed() {
        SimulatorSettings settings = SimulatorSettings.defaults().withFailureRate(0.2).withSeed(7);
        int failuresA = failures(simulator(settings), 1000);
        int failuresB = failures(simulator(settings), 1000);

        assertThat(failuresA).isEqualTo(failuresB).isBetween(150, 250);
    }

    @Test
    void shouldLeaveTheWorldUnchangedWhenAnApplyFails() {
        FleetSimulator sim = simulator(SimulatorSettings.defaults().withFailureRate(1.0));

        assertThatThrownBy(() -> sim.apply(correction(SHOP.key(), Action.CREATE, 1, Map.of())))
            .isInstanceOf(FleetSimulator.SimulatedFailureException.class);
        assertThat(sim.size()).isZero();
        assertThat(sim.failedCount()).isEqualTo(1);
    }

    @Test
    void shouldWaitTheModelledLatencyBeforeApplying() throws Exception {
        FleetSimulator sim = simulator(SimulatorSettings.defaults().withLatency(LatencyModel.fixed(Duration.ofMillis(40))));

        sim.apply(correction(SHOP.key(), Action.CREATE, 1, Map.of()));

        assertThat(slept).containsExactly(Duration.ofMillis(40));
    }

    @Test
    void shouldNotSleepInZeroLatencyMode() throws Exception {
        FleetSimulator sim = simulator(SimulatorSettings.defaults());

        sim.apply(correction(SHOP.key(), Action.CREATE, 1, Map.of()));

        assertThat(slept).isEmpty();
    }

    @Test
    void shouldDriftTheConfiguredNumericFieldOfAResource() {
        FleetSimulator sim = simulator(SimulatorSettings.defaults().withDrift(Duration.ofSeconds(1), "replicas"));
        sim.put(SHOP, Map.of("replicas", 5L, "image", "nginx"));

        Optional<ResourceRef> drifted = sim.drift();

        assertThat(drifted).contains(SHOP);
        Map<?, ?> state = (Map<?, ?>) sim.observe(SHOP).state();
        assertThat((Long) state.get("replicas")).isBetween(6L, 8L);
        assertThat(state.get("image")).isEqualTo("nginx");
        assertThat(sim.driftedCount()).isEqualTo(1);
    }

    @Test
    void shouldNotDriftAnEmptyWorld() {
        assertThat(simulator(SimulatorSettings.defaults()).drift()).isEmpty();
    }

    @Test
    void shouldReportOnlyTheResourcesInTheWorld() {
        FleetSimulator sim = simulator(SimulatorSettings.defaults().withKinds(Set.of("WebApp")));
        sim.put(SHOP, Map.of());
        sim.put(ResourceRef.parse("WebApp/default/blog"), Map.of());

        assertThat(sim.list()).extracting(Observation::ref)
            .containsExactlyInAnyOrder(SHOP, ResourceRef.parse("WebApp/default/blog"));
    }

    @Test
    void shouldReportReplicasBecomingReadyAfterAnApply() throws Exception {
        long[] now = {0};
        FleetSimulator sim = new FleetSimulator(SimulatorSettings.defaults().withStatus(Duration.ofSeconds(2), Duration.ZERO),
            slept::add, () -> now[0]);
        sim.apply(correction(SHOP.key(), Action.CREATE, 1, Map.of("replicas", 3)));

        assertThat(sim.observe(SHOP).status()).isEqualTo(Map.of("replicas", 3L, "readyReplicas", 0L, "crashLooping", 0L));
        assertThat(sim.tick()).containsExactly(SHOP);
        assertThat(sim.tick()).as("nothing changed since the last tick").isEmpty();
        now[0] = 4_500;
        assertThat(sim.tick()).containsExactly(SHOP);
        assertThat(sim.observe(SHOP).status()).isEqualTo(Map.of("replicas", 3L, "readyReplicas", 2L, "crashLooping", 0L));
        now[0] = 60_000;
        assertThat(sim.observe(SHOP).status()).isEqualTo(Map.of("replicas", 3L, "readyReplicas", 3L, "crashLooping", 0L));
    }

    @Test
    void shouldMakeAResourceCrashLoopNowAndThenAndRecover() throws Exception {
        long[] now = {0};
        FleetSimulator sim = new FleetSimulator(SimulatorSettings.defaults().withStatus(Duration.ofMillis(1), Duration.ofSeconds(60)),
            slept::add, () -> now[0]);
        sim.apply(correction(SHOP.key(), Action.CREATE, 1, Map.of("replicas", 2)));
        now[0] = 10_000;
        sim.tick();
        assertThat(sim.observe(SHOP).status()).isEqualTo(Map.of("replicas", 2L, "readyReplicas", 2L, "crashLooping", 0L));

        now[0] = 60_000;
        assertThat(sim.tick()).containsExactly(SHOP);
        assertThat(sim.observe(SHOP).status()).isEqualTo(Map.of("replicas", 2L, "readyReplicas", 1L, "crashLooping", 1L));

        now[0] = 95_000;
        assertThat(sim.tick()).containsExactly(SHOP);
        assertThat(sim.observe(SHOP).status()).isEqualTo(Map.of("replicas", 2L, "readyReplicas", 2L, "crashLooping", 0L));
    }

    @Test
    void shouldReportNoStatusUnlessAsked() throws Exception {
        FleetSimulator sim = simulator(SimulatorSettings.defaults());
        sim.apply(correction(SHOP.key(), Action.CREATE, 1, Map.of("replicas", 3)));

        assertThat(sim.observe(SHOP).status()).isNull();
        assertThat(sim.tick()).isEmpty();
    }

    private FleetSimulator simulator(SimulatorSettings settings) {
        return new FleetSimulator(settings, slept::add);
    }

    private static int failures(FleetSimulator sim, int n) {
        int failures = 0;
        for (int i = 0; i < n; i++) {
            try {
                sim.apply(correction("WebApp/default/r" + i, Action.CREATE, 1, Map.of()));
            } catch (Exception e) {
                failures++;
            }
        }
        return failures;
    }
}
