package io.statesync.reconciler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.statesync.reconciler.internal.CelPrograms;
import io.statesync.reconciler.internal.CompiledRules;

/**
 * A kind's health rules, compiled once when the policy is built. {@link #evaluate} tries them in order: the first
 * whose condition is true gives the health; a rule that fails to evaluate gives Unknown with the error, since a
 * later rule may only be right once the earlier ones are known to be false.
 */
public final class HealthRules extends CompiledRules<HealthRule> {

    /** The variables a health rule sees. */
    public static final List<String> VARIABLES = List.of("desired", "observed", "resource", "children");

    /** How the message of a health that a failed rule gave starts. */
    public static final String FAILED = "health rule ";

    private static final HealthRules NONE = new HealthRules(List.of());

    private HealthRules(List<HealthRule> rules) {
        super(rules, HealthRule::when, VARIABLES, "health rule");
    }

    public static HealthRules none() {
        return NONE;
    }

    /** Compiles every rule; the first that does not compile throws {@link InvalidRuleException}. */
    public static HealthRules compile(List<HealthRule> rules) {
        return rules.isEmpty() ? NONE : new HealthRules(rules);
    }

    /**
     * The health the first matching rule gives, Unknown (with the error) for the first rule that fails, or empty when
     * no rule matched. {@code variables} holds {@code desired}, {@code observed} and {@code resource} as trees.
     */
    public Optional<Verdict> evaluate(Map<String, Object> variables) {
        Map<String, Object> activation = new HashMap<>();
        variables.forEach((k, v) -> activation.put(k, CelPrograms.value(v)));
        for (int i = 0; i < programs().size(); i++) {
            HealthRule rule = rules().get(i);
            try {
                if (CelPrograms.evaluate(programs().get(i), activation)) {
                    return Optional.of(new Verdict(rule.status(), rule.message()));
                }
            } catch (CelPrograms.EvaluationException e) {
                return Optional.of(new Verdict(HealthStatus.Unknown,
                    FAILED + (i + 1) + " (" + rule.when() + ") failed: " + e.getMessage()));
            }
        }
        return Optional.empty();
    }

    /** What a rule concluded. */
    public record Verdict(HealthStatus status, String message) {
    }
}
