package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HealthCalculatorTest {
    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final Instant T1 = T0.plusSeconds(30);

    private static final HealthRules RULES = HealthRules.compile(List.of(
        new HealthRule(HealthStatus.Degraded, "has(observed.status.crashLooping) && observed.status.crashLooping > 0", "pods crash-loop"),
        new HealthRule(HealthStatus.Progressing, "observed.status.readyReplicas < desired.replicas", "replicas starting"),
        new HealthRule(HealthStatus.Healthy, "observed.status.readyReplicas >= desired.replicas", "all replicas ready")));

    private static HealthInput present(Map<String, Object> status, List<ConditionView> conditions) {
        Map<String, Object> observed = new HashMap<>();
        observed.put("state", Map.of("replicas", 3L));
        observed.put("status", status);
        observed.put("conditions", List.of());
        Map<String, Object> vars = Map.of("desired", Map.of("replicas", 3L), "observed", observed,
            "resource", Map.of("kind", "WebApp", "name", "shop", "labels", Map.of("tier", "web")));
        return new HealthInput(ObservedView.present(Map.of("replicas", 3L), 1, T0, null), conditions, () -> vars);
    }

    private static ConditionView ready(String status) {
        return new ConditionView("Ready", status, "PodsReady", "2/3", T0);
    }

    @Test
    void shouldBeMissingWhenNeverObservedOrObservedAbsent() {
        HealthInput never = new HealthInput(ObservedView.unknown(), List.of(), Map::of);
        HealthInput gone = new HealthInput(ObservedView.absent(T0), List.of(), Map::of);

        assertThat(HealthCalculator.compute(null, never, RULES, T0).status()).isEqualTo(HealthStatus.Missing);
        assertThat(HealthCalculator.compute(null, gone, RULES, T0).status()).isEqualTo(HealthStatus.Missing);
    }

    @Test
    void shouldFollowTheReadyConditionWithoutRules() {
        assertThat(HealthCalculator.compute(null, present(Map.of(), List.of(ready("True"))), HealthRules.none(), T0).status())
            .isEqualTo(HealthStatus.Healthy);
        assertThat(HealthCalculator.compute(null, present(Map.of(), List.of(ready("False"))), HealthRules.none(), T0).status())
            .isEqualTo(HealthStatus.Degraded);
        assertThat(HealthCalculator.compute(null, present(Map.of(), List.of(ready("Unknown"))), HealthRules.none(), T0).status())
            .isEqualTo(HealthStatus.Progressing);
        assertThat(HealthCalculator.compute(null, present(Map.of(), List.of()), HealthRules.none(), T0).status())
            .isEqualTo(HealthStatus.Unknown);
    }

    @Test
    void shouldTakeTheFirstRuleThatMatches() {
        // Both the crash-loop rule and the readiness rule match: the first one listed wins.
        HealthView h = HealthCalculator.compute(null, present(Map.of("crashLooping", 1L, "readyReplicas", 1L), List.of()), RULES, T0);

        assertThat(h.status()).isEqualTo(HealthStatus.Degraded);
        assertThat(h.message()).isEqualTo("pods crash-loop");
        assertThat(HealthCalculator.compute(null, present(Map.of("readyReplicas", 1L), List.of()), RULES, T0).status())
            .isEqualTo(HealthStatus.Progressing);
        assertThat(HealthCalculator.compute(null, present(Map.of("readyReplicas", 3L), List.of()), RULES, T0).status())
            .isEqualTo(HealthStatus.Healthy);
    }

    @Test
    void shouldFallBackToTheReadyConditionWhenNoRuleMatches() {
        HealthRules never = HealthRules.compile(List.of(new HealthRule(HealthStatus.Degraded, "false", "")));

        assertThat(HealthCalculator.compute(null, present(Map.of(), List.of(ready("True"))), never, T0).status())
            .isEqualTo(HealthStatus.Healthy);
    }

    @Test
    void shouldBeUnknownWithTheErrorWhenARuleFailsAtRunTime() {
        HealthView h = HealthCalculator.compute(null, present(Map.of("crashLooping", 0L), List.of()), RULES, T0);

        assertThat(h.status()).isEqualTo(HealthStatus.Unknown);
        assertThat(h.message()).startsWith("health rule 2").contains("readyReplicas");
    }

    @Test
    void shouldBeUnknownWhenARuleExceedsTheCostLimit() {
        String range = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
        HealthRules costly = HealthRules.compile(List.of(new HealthRule(HealthStatus.Healthy,
            range + ".all(a, " + range + ".all(b, " + range + ".all(c, " + range + ".all(d, " + range + ".all(e, true)))))", "")));

        HealthView h = HealthCalculator.compute(null, present(Map.of(), List.of()), costly, T0);

        assertThat(h.status()).isEqualTo(HealthStatus.Unknown);
        assertThat(h.message()).contains("cost limit exceeded");
    }

    @Test
    void shouldReadResourceMetadataAndNullFields() {
        Map<String, Object> status = new HashMap<>();
        status.put("paused", null);
        HealthRules rules = HealthRules.compile(List.of(new HealthRule(HealthStatus.Suspended,
            "resource.labels.tier == 'web' && observed.status.paused == null", "")));

        assertThat(HealthCalculator.compute(null, present(status, List.of()), rules, T0).status())
            .isEqualTo(HealthStatus.Suspended);
    }

    @Test
    void shouldRefuseARuleThatDoesNotCompile() {
        assertThatThrownBy(() -> HealthRules.compile(List.of(new HealthRule(HealthStatus.Healthy, "observed.status.ready >", ""))))
            .isInstanceOf(InvalidRuleException.class).hasMessageContaining("health rule 1");
        assertThatThrownBy(() -> HealthRules.compile(List.of(new HealthRule(HealthStatus.Healthy, "'not a bool'", ""))))
            .isInstanceOf(InvalidRuleException.class);
        assertThatThrownBy(() -> HealthRules.compile(List.of(new HealthRule(HealthStatus.Healthy, "unknownVar > 1", ""))))
            .isInstanceOf(InvalidRuleException.class).hasMessageContaining("unknownVar");
    }

    @Test
    void shouldMoveTheTransitionTimeOnlyWhenTheStatusChanges() {
        HealthView first = HealthCalculator.compute(null, present(Map.of("readyReplicas", 1L), List.of()), RULES, T0);
        HealthView same = HealthCalculator.compute(first, present(Map.of("readyReplicas", 2L), List.of()), RULES, T1);
        HealthView changed = HealthCalculator.compute(same, present(Map.of("readyReplicas", 3L), List.of()), RULES, T1);

        assertThat(same.lastTransitionTime()).isEqualTo(T0);
        assertThat(changed.lastTransitionTime()).isEqualTo(T1);
    }

    @Test
    void shouldAddAHealthyConditionInKubernetesShape() {
        StatusView base = new StatusView(SyncStatus.Synced, List.of(), List.of(), 0, 1, null, T0);
        HealthView degraded = new HealthView(HealthStatus.Degraded, "pods crash-loop", T0);

        StatusView s = HealthCalculator.withHealth(null, base, degraded);

        assertThat(s.syncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(s.health()).isEqualTo(degraded);
        assertThat(s.condition("Healthy")).hasValue(new ConditionView("Healthy", "False", "Degraded", "pods crash-loop", T0));
        assertThat(HealthCalculator.withHealth(null, base, new HealthView(HealthStatus.Healthy, "", T0))
            .condition("Healthy").orElseThrow().status()).isEqualTo("True");
        assertThat(HealthCalculator.withHealth(null, base, new HealthView(HealthStatus.Unknown, "", T0))
            .condition("Healthy").orElseThrow().status()).isEqualTo("Unknown");
    }
}
