package io.statesync.reconciler;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What health is judged from.
 *
 * @param observed           the observed side (Missing when not present)
 * @param observedConditions the conditions the agent reported (the default health reads {@code Ready})
 * @param variables          the rules' variables {@code desired}, {@code observed} and {@code resource} as trees;
 *                           built only when the kind has rules
 */
public record HealthInput(ObservedView observed, List<ConditionView> observedConditions,
                          Supplier<Map<String, Object>> variables) {
    public HealthInput {
        Objects.requireNonNull(observed, "observed");
        observedConditions = List.copyOf(observedConditions);
        Objects.requireNonNull(variables, "variables");
    }
}
