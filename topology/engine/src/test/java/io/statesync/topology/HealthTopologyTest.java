package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Condition;
import io.statesync.avro.Health;
import io.statesync.avro.HealthRule;
import io.statesync.avro.HealthStatus;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/** status.health judged on every reconcile by the real topology under TopologyTestDriver. */
class HealthTopologyTest extends TopologyTestBase {

    static final String KEY = "WebApp/default/shop";
    static final Map<String, Object> SPEC = Map.of("image", "nginx:1.21", "replicas", 3L);
    static final List<HealthRule> RULES = List.of(
        new HealthRule(HealthStatus.Degraded, "has(observed.status.crashLooping) && observed.status.crashLooping > 0", "pods crash-loop"),
        new HealthRule(HealthStatus.Progressing, "observed.status.readyReplicas < desired.replicas", "replicas starting"),
        new HealthRule(HealthStatus.Healthy, "observed.status.readyReplicas >= desired.replicas", "all replicas ready"));

    private Resource create() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC));
        return last(f.drainResources());
    }

    private void rules(List<HealthRule> rules) {
        f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setHealthRules(rules).build());
    }

    /** The agent reports the desired state (so the resource is Synced) with {@code status} and {@code conditions}. */
    private Resource report(Resource r, Map<String, Object> status, List<Condition> conditions) {
        f.advance(Duration.ofMillis(10));
        ObservedState o = ObservedState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setUid(r.getMetadata().getUid()).setObservedGeneration(r.getMetadata().getGeneration())
            .setState(TopologyFixture.spec(SPEC)).setStatus(TopologyFixture.spec(status)).setConditions(conditions)
            .setObservedAt(f.now()).setReporter("test").build();
        f.observed.pipeInput(new TestRecord<>(KEY, o, f.now()));
        return last(f.drainResources());
    }

    private static Condition ready(String status) {
        return Condition.newBuilder().setType("Ready").setStatus(status).setReason("PodsReady").build();
    }

    private static Condition healthyCondition(Resource r) {
        return r.getStatus().getConditions().stream().filter(c -> c.getType().equals("Healthy")).findFirst().orElseThrow();
    }

    @Test
    void shouldBeMissingUntilAnAgentReportsTheResource() {
        Resource r = create();

        assertThat(r.getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Missing);
        assertThat(healthyCondition(r).getStatus()).isEqualTo("False");
        assertThat(healthyCondition(r).getReason()).isEqualTo("Missing");
    }

    @Test
    void shouldBeMissingWhenTheAgentReportsTheResourceAbsent() {
        Resource r = create();
        report(r, Map.of(), List.of(ready("True")));
        f.advance(Duration.ofMillis(10));
        f.observeTombstone(KEY);

        assertThat(last(f.drainResources()).getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Missing);
    }

    @Test
    void shouldFollowTheAgentsReadyConditionWithoutRules() {
        Resource r = create();

        assertThat(report(r, Map.of(), List.of(ready("True"))).getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Healthy);
        assertThat(report(r, Map.of(), List.of(ready("False"))).getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Degraded);
        assertThat(report(r, Map.of(), List.of(ready("Unknown"))).getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Progressing);
        assertThat(report(r, Map.of(), List.of()).getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Unknown);
    }

    @Test
    void shouldBeSyncedAndDegradedAtOnce() {
        rules(RULES);
        Resource r = report(create(), Map.of("crashLooping", 2L, "readyReplicas", 1L), List.of());

        assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(r.getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Degraded);
        assertThat(r.getStatus().getHealth().getMessage()).isEqualTo("pods crash-loop");
        assertThat(healthyCondition(r).getStatus()).isEqualTo("False");
    }

    @Test
    void shouldTakeTheFirstRuleThatMatchesInOrder() {
        rules(RULES);
        Resource r = create();

        assertThat(report(r, Map.of("readyReplicas", 1L), List.of()).getStatus().getHealth().getStatus())
            .isEqualTo(HealthStatus.Progressing);
        Resource healthy = report(r, Map.of("readyReplicas", 3L), List.of());
        assertThat(healthy.getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Healthy);
        assertThat(healthyCondition(healthy).getStatus()).isEqualTo("True");
        assertThat(report(r, Map.of("readyReplicas", 3L, "crashLooping", 1L), List.of()).getStatus().getHealth().getStatus())
            .isEqualTo(HealthStatus.Degraded);
    }

    @Test
    void shouldBeUnknownWithTheErrorWhenARuleFailsAtRunTime() {
        rules(RULES);
        Health h = report(create(), Map.of("crashLooping", 0L), List.of()).getStatus().getHealth();

        assertThat(h.getStatus()).isEqualTo(HealthStatus.Unknown);
        assertThat(h.getMessage()).startsWith("health rule 2").contains("readyReplicas");
    }

    @Test
    void shouldBeUnknownWhenARuleExceedsTheCostLimit() {
        String range = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
        rules(List.of(new HealthRule(HealthStatus.Healthy,
            range + ".all(a, " + range + ".all(b, " + range + ".all(c, " + range + ".all(d, " + range + ".all(e, true)))))", "")));

        Health h = report(create(), Map.of(), List.of(ready("True"))).getStatus().getHealth();

        assertThat(h.getStatus()).isEqualTo(HealthStatus.Unknown);
        assertThat(h.getMessage()).contains("cost limit exceeded");
    }

    @Test
    void shouldIgnoreRulesThatDoNotCompileInAPolicyWrittenStraightToTheTopic() {
        rules(List.of(new HealthRule(HealthStatus.Degraded, "observed.status.ready >", "")));

        Resource r = report(create(), Map.of(), List.of(ready("True")));

        assertThat(r.getStatus().getHealth().getStatus()).isEqualTo(HealthStatus.Healthy);
        assertThat(f.dlq.isEmpty()).isTrue();
    }

    @Test
    void shouldKeepTheHealthAndItsTransitionTimeWhileItStaysTheSameAndMoveThemWhenItChanges() {
        rules(RULES);
        Resource r = create();
        Health first = report(r, Map.of("readyReplicas", 1L), List.of()).getStatus().getHealth();
        f.advance(Duration.ofMillis(10));
        f.observed.pipeInput(KEY, ObservedState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setUid(r.getMetadata().getUid()).setObservedGeneration(1).setState(TopologyFixture.spec(SPEC))
            .setStatus(TopologyFixture.spec(Map.of("readyReplicas", 2L))).setObservedAt(f.now()).build());
        assertThat(f.drainResources()).as("the changed reported status is published, the health as it was")
            .singleElement().satisfies(p -> assertThat(p.getStatus().getHealth()).isEqualTo(first));

        Health healthy = report(r, Map.of("readyReplicas", 3L), List.of()).getStatus().getHealth();

        assertThat(first.getStatus()).isEqualTo(HealthStatus.Progressing);
        assertThat(healthy.getStatus()).isEqualTo(HealthStatus.Healthy);
        assertThat(healthy.getLastTransitionTime()).isAfter(first.getLastTransitionTime());
    }
}
