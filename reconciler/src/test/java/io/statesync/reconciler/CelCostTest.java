package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The estimated cost of rules, the checks before a policy is accepted, and the cost charged while one runs. */
class CelCostTest {

    private static final long SPEC_MAX_BYTES = 1_048_576;
    private static final RuleLimits LIMITS = new RuleLimits(16, 2_000, 10_000_000, 100_000_000, SPEC_MAX_BYTES);

    private static String concatenationBomb(int terms) {
        return "size(" + String.join(" + ", Collections.nCopies(terms, "self.s")) + ") > 0";
    }

    private static ReconcilePolicy withValidation(String... rules) {
        return ReconcilePolicy.builder().validationRules(java.util.Arrays.stream(rules)
            .map(r -> new ValidationRule(r, "", "")).toList()).build();
    }

    private static long estimate(String rule) {
        return ValidationRules.compile(List.of(new ValidationRule(rule, "", ""))).estimatedCosts(SPEC_MAX_BYTES).get(0);
    }

    @Test
    void shouldEstimateAConcatenationBySizeSoThatRepeatingItGrowsTheEstimateQuadratically() {
        long two = estimate(concatenationBomb(2));
        long twenty = estimate(concatenationBomb(20));

        assertThat(two).isGreaterThan(SPEC_MAX_BYTES / 10);
        assertThat(twenty).isGreaterThan(two * 100);
    }

    @Test
    void shouldRefuseTheTwoHundredTermConcatenationByItsEstimateNamingTheRule() {
        ReconcilePolicy bomb = withValidation(concatenationBomb(200));

        assertThatThrownBy(() -> LIMITS.checkCost(bomb)).isInstanceOf(InvalidRuleException.class)
            .hasMessageContaining("validation rule 1 (size(self.s + self.s")
            .hasMessageContaining("has an estimated cost of").hasMessageContaining("more than 10000000");
    }

    @Test
    void shouldAcceptTheUsualRulesOverASpecOfTheFullSize() {
        ReconcilePolicy usual = ReconcilePolicy.builder()
            .validationRules(List.of(new ValidationRule("!has(self.replicas) || (self.replicas >= 0 && self.replicas <= 50)", "", ""),
                new ValidationRule("self.image.startsWith('nginx') && self.items.all(i, i.port > 0 && i.port < 65536)", "", "")))
            .healthRules(List.of(new HealthRule(HealthStatus.Degraded, "children.exists(c, c.health == 'Degraded')", ""),
                new HealthRule(HealthStatus.Progressing, "size(children) == 0 || children.exists(c, c.health != 'Healthy')", ""),
                new HealthRule(HealthStatus.Progressing,
                    "has(observed.status.readyReplicas) && observed.status.readyReplicas < observed.status.replicas", "")))
            .build();

        assertThatCode(() -> LIMITS.checkCost(usual)).doesNotThrowAnyException();
    }

    @Test
    void shouldRefuseNestedLoopsOverUnboundedListsAsKubernetesDoes() {
        assertThat(estimate("self.a.all(x, self.b.all(y, x == y))")).isGreaterThan(10_000_000);
    }

    @Test
    void shouldRefuseTheSumOfRulesPastThePolicyLimit() {
        RuleLimits tight = new RuleLimits(16, 2_000, 10_000_000, 150_000, SPEC_MAX_BYTES);
        ReconcilePolicy two = withValidation("self.s.contains('a')", "self.t.contains('b')");

        assertThatThrownBy(() -> tight.checkCost(two)).isInstanceOf(InvalidRuleException.class)
            .hasMessageContaining("together, more than 150000");
    }

    @Test
    void shouldRefuseTooManyRulesAndARuleLongerThanItsBoundInBytes() {
        assertThatThrownBy(() -> LIMITS.checkSources(Collections.nCopies(10, "true"), Collections.nCopies(7, "true")))
            .isInstanceOf(InvalidRuleException.class).hasMessageContaining("17 health and validation rules; at most 16");
        String multibyte = "self.s == '" + "é".repeat(1_000) + "'";
        assertThatThrownBy(() -> LIMITS.checkSources(List.of(), List.of("true", multibyte)))
            .isInstanceOf(InvalidRuleException.class).hasMessageContaining("validation rule 2 is 2012 bytes long; at most 2000");
    }

    @Test
    void shouldStopAConcatenationBombAtEvaluationQuicklyByTheSizesItBuilds() {
        ValidationRules bomb = ValidationRules.compile(List.of(new ValidationRule(concatenationBomb(200), "", "")));
        Map<String, Object> spec = Map.of("s", "x".repeat(400_000));

        long start = System.nanoTime();
        List<String> failures = bomb.validate(spec, null, false);
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(failures).singleElement().asString().contains("cost limit exceeded");
        assertThat(ms).as("stopped after a few copies").isLessThan(3_000);
    }

    @Test
    void shouldChargeScansBySizeSoAScanInALoopStops() {
        ValidationRules scans = ValidationRules.compile(List.of(new ValidationRule(
            "self.items.all(i, !self.s.contains('needle'))", "", "")));
        Map<String, Object> spec = Map.of("s", "x".repeat(100_000), "items", Collections.nCopies(1_000, 1L));

        assertThat(scans.validate(spec, null, false)).singleElement().asString().contains("cost limit exceeded");
    }

    @Test
    void shouldNotChargeMapAndFilterForCopyingTheirAccumulator() {
        ValidationRules mapped = ValidationRules.compile(List.of(new ValidationRule(
            "self.items.map(i, i * 2).filter(i, i > 0).size() == 5000", "", "")));

        assertThat(mapped.validate(Map.of("items", Collections.nCopies(5_000, 1L)), null, false)).isEmpty();
    }
}
