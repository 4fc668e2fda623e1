package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValidationRulesTest {
    private static final ValidationRules RULES = ValidationRules.compile(List.of(
        new ValidationRule("self.replicas <= 10", "at most 10 replicas", ".replicas"),
        new ValidationRule("self.image.startsWith('nginx')", "", ""),
        new ValidationRule("self.replicas >= oldSelf.replicas", "replicas may not shrink", "replicas")));

    @Test
    void shouldPassASpecThatKeepsEveryRule() {
        assertThat(RULES.validate(Map.of("replicas", 3L, "image", "nginx:1"), null, false)).isEmpty();
    }

    @Test
    void shouldReportEveryFailedRule() {
        List<String> failures = RULES.validate(Map.of("replicas", 30L, "image", "httpd"), null, false);

        assertThat(failures).containsExactly("spec.replicas: at most 10 replicas",
            "spec: failed rule: self.image.startsWith('nginx')");
    }

    @Test
    void shouldEvaluateTransitionRulesOnlyOnUpdate() {
        Map<String, Object> spec = Map.of("replicas", 2L, "image", "nginx:1");

        assertThat(RULES.validate(spec, null, false)).isEmpty();
        assertThat(RULES.validate(spec, Map.of("replicas", 5L, "image", "nginx:1"), true))
            .containsExactly("spec.replicas: replicas may not shrink");
        assertThat(RULES.validate(spec, Map.of("replicas", 1L, "image", "nginx:1"), true)).isEmpty();
    }

    @Test
    void shouldFailARuleThatCannotBeEvaluated() {
        assertThat(RULES.validate(Map.of("image", "nginx:1"), null, false))
            .singleElement().asString().startsWith("spec.replicas: rule self.replicas <= 10 could not be evaluated");
    }

    @Test
    void shouldFailARuleThatExceedsTheCostLimit() {
        String range = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
        ValidationRules costly = ValidationRules.compile(List.of(new ValidationRule(
            range + ".all(a, " + range + ".all(b, " + range + ".all(c, " + range + ".all(d, " + range + ".all(e, true)))))", "", "")));

        assertThat(costly.validate(Map.of(), null, false)).singleElement().asString().contains("cost limit exceeded");
    }

    @Test
    void shouldRefuseARuleThatDoesNotCompileOrIsTooLong() {
        assertThatThrownBy(() -> ValidationRules.compile(List.of(new ValidationRule("self.replicas <", "", ""))))
            .isInstanceOf(InvalidRuleException.class).hasMessageContaining("validation rule 1");
        assertThatThrownBy(() -> ValidationRules.compile(List.of(new ValidationRule("true || " + "true || ".repeat(1000) + "true", "", ""))))
            .isInstanceOf(InvalidRuleException.class);
    }
}
