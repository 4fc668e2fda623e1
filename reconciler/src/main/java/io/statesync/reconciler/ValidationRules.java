package io.statesync.reconciler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.statesync.reconciler.internal.CelPrograms;
import io.statesync.reconciler.internal.CompiledRules;

/**
 * A kind's validation rules on the spec, compiled once when the policy is built, evaluated as Kubernetes evaluates a
 * CRD's {@code x-kubernetes-validations}: {@code self} is the new spec; a rule that reads {@code oldSelf} is a
 * transition rule, evaluated only on an update (when there is a stored spec).
 */
public final class ValidationRules extends CompiledRules<ValidationRule> {

    public static final String SELF = "self";
    public static final String OLD_SELF = "oldSelf";
    private static final List<String> VARIABLES = List.of(SELF, OLD_SELF);

    private static final ValidationRules NONE = new ValidationRules(List.of());

    private ValidationRules(List<ValidationRule> rules) {
        super(rules, ValidationRule::rule, VARIABLES, "validation rule");
    }

    public static ValidationRules none() {
        return NONE;
    }

    /** Compiles every rule; the first that does not compile throws {@link InvalidRuleException}. */
    public static ValidationRules compile(List<ValidationRule> rules) {
        return rules.isEmpty() ? NONE : new ValidationRules(rules);
    }

    /**
     * The failure messages of every rule {@code spec} breaks, in rule order; empty when it passes. {@code oldSpec} is
     * the stored spec, or {@code update} false for a create (transition rules are then skipped). A rule that cannot be
     * evaluated (a missing field, a type error, the cost limit) fails with the error, as in Kubernetes.
     */
    public List<String> validate(Object spec, Object oldSpec, boolean update) {
        List<String> out = new ArrayList<>();
        for (Failure f : failures(spec, oldSpec, update)) {
            out.add(prefix(f.rule()) + f.message());
        }
        return out;
    }

    /** A rule a value breaks, and the message of its failure. */
    public record Failure(ValidationRule rule, String message) {
    }

    /**
     * The rules {@code self} breaks, in rule order, each with its message (the rule's, or {@code failed rule: ...},
     * or why it could not be evaluated); transition rules only when {@code update}.
     */
    public List<Failure> failures(Object self, Object oldSelf, boolean update) {
        if (isEmpty()) {
            return List.of();
        }
        Map<String, Object> activation = new HashMap<>();
        activation.put(SELF, CelPrograms.value(self));
        activation.put(OLD_SELF, CelPrograms.value(update ? oldSelf : null));
        List<Failure> failures = new ArrayList<>();
        for (int i = 0; i < programs().size(); i++) {
            CelPrograms.Program p = programs().get(i);
            ValidationRule rule = rules().get(i);
            if (!update && p.variablesRead().contains(OLD_SELF)) {
                continue;
            }
            try {
                if (!CelPrograms.evaluate(p, activation)) {
                    failures.add(new Failure(rule, rule.message().isEmpty() ? "failed rule: " + rule.rule() : rule.message()));
                }
            } catch (CelPrograms.EvaluationException e) {
                failures.add(new Failure(rule, "rule " + rule.rule() + " could not be evaluated: " + e.getMessage()));
            }
        }
        return failures;
    }

    private static String prefix(ValidationRule r) {
        return r.fieldPath().isEmpty() ? "spec: " : "spec" + (r.fieldPath().startsWith(".") ? "" : ".") + r.fieldPath() + ": ";
    }
}
