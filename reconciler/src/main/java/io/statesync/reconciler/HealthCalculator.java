package io.statesync.reconciler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Judges a resource's health, apart from its syncStatus:
 * <ol>
 *   <li>Missing when no agent has reported the resource or the agent reports it absent;</li>
 *   <li>else the first of the kind's health rules whose condition holds (a rule that fails gives Unknown);</li>
 *   <li>else the agent's {@code Ready} condition: True is Healthy, False is Degraded, Unknown is Progressing (the
 *       agent does not know yet, as while a resource starts);</li>
 *   <li>else Unknown.</li>
 * </ol>
 * {@code lastTransitionTime} moves only when the health status changes.
 */
public final class HealthCalculator {

    private HealthCalculator() {
    }

    /** @param previous the stored health, or null for a new resource */
    public static HealthView compute(HealthView previous, HealthInput in, HealthRules rules, Instant now) {
        HealthRules.Verdict v = judge(in, rules);
        Instant since = previous != null && previous.status() == v.status() && previous.lastTransitionTime() != null
            ? previous.lastTransitionTime() : now;
        return new HealthView(v.status(), v.message(), since);
    }

    /** {@code next} with {@code health} and its {@code Healthy} condition appended to the conditions. */
    public static StatusView withHealth(StatusView previous, StatusView next, HealthView health) {
        ConditionView healthy = healthyCondition(health);
        Optional<ConditionView> before = previous == null ? Optional.empty() : previous.condition(ConditionView.HEALTHY);
        Instant since = before.filter(b -> b.status().equals(healthy.status()))
            .map(ConditionView::lastTransitionTime).orElse(health.lastTransitionTime());
        List<ConditionView> conditions = new ArrayList<>(next.conditions().size() + 1);
        for (ConditionView c : next.conditions()) {
            if (!c.type().equals(ConditionView.HEALTHY)) {
                conditions.add(c);
            }
        }
        conditions.add(new ConditionView(healthy.type(), healthy.status(), healthy.reason(), healthy.message(), since));
        return new StatusView(next.syncStatus(), conditions, next.diff(), next.attempts(), next.observedGeneration(),
            next.convergedAt(), next.lastObservedAt(), health);
    }

    private static ConditionView healthyCondition(HealthView h) {
        String status = switch (h.status()) {
            case Healthy -> ConditionView.TRUE;
            case Unknown -> ConditionView.UNKNOWN;
            default -> ConditionView.FALSE;
        };
        return new ConditionView(ConditionView.HEALTHY, status, h.status().name(), h.message(),
            h.lastTransitionTime() == null ? Instant.EPOCH : h.lastTransitionTime());
    }

    private static HealthRules.Verdict judge(HealthInput in, HealthRules rules) {
        ObservedView o = in.observed();
        if (o.presence() == ObservedView.Presence.UNKNOWN) {
            return new HealthRules.Verdict(HealthStatus.Missing, "no agent has reported the resource");
        }
        if (o.presence() == ObservedView.Presence.ABSENT) {
            return new HealthRules.Verdict(HealthStatus.Missing, "the agent reports the resource absent");
        }
        if (!rules.isEmpty()) {
            Optional<HealthRules.Verdict> v = rules.evaluate(in.variables().get());
            if (v.isPresent()) {
                return v.get();
            }
        }
        return fromReady(in.observedConditions());
    }

    private static HealthRules.Verdict fromReady(List<ConditionView> conditions) {
        for (ConditionView c : conditions) {
            if (c.type().equals(ConditionView.READY)) {
                HealthStatus s = switch (c.status()) {
                    case ConditionView.TRUE -> HealthStatus.Healthy;
                    case ConditionView.FALSE -> HealthStatus.Degraded;
                    default -> HealthStatus.Progressing;
                };
                String why = c.reason().isEmpty() ? c.message() : c.message().isEmpty() ? c.reason() : c.reason() + ": " + c.message();
                return new HealthRules.Verdict(s, "Ready is " + c.status() + (why.isEmpty() ? "" : " (" + why + ")"));
            }
        }
        return new HealthRules.Verdict(HealthStatus.Unknown, "no health rule matched and the agent reports no Ready condition");
    }
}
