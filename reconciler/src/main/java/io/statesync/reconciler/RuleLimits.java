package io.statesync.reconciler;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The bounds a kind policy's CEL rules must keep to be accepted, as Kubernetes bounds a CRD's validation rules: how
 * many rules one policy has, how long each rule's source is in bytes, and each rule's estimated worst-case cost and
 * their sum. The estimate takes every string or list a rule reads to be {@code sizeBound} long (the spec size bound),
 * since specs carry no schema with lengths; evaluation is bounded separately, so a policy that never passed these
 * checks (one written straight to the topic) still cannot run away.
 *
 * @param maxRules               health and validation rules together, per policy
 * @param maxRuleBytes           the UTF-8 length of one rule's expression
 * @param maxEstimatedCost       one rule's estimated cost
 * @param maxEstimatedPolicyCost the sum of a policy's estimated costs
 * @param sizeBound              the worst-case length of any string or list a rule reads
 */
public record RuleLimits(int maxRules, int maxRuleBytes, long maxEstimatedCost, long maxEstimatedPolicyCost, long sizeBound) {

    /**
     * Checks the count and length of the rules before anything is compiled; {@code health} and {@code validation}
     * are the expressions. Throws {@link InvalidRuleException} naming the first rule past a bound.
     */
    public void checkSources(List<String> health, List<String> validation) {
        if (health.size() + validation.size() > maxRules) {
            throw new InvalidRuleException("the policy has " + (health.size() + validation.size())
                + " health and validation rules; at most " + maxRules + " are allowed");
        }
        checkLengths("health rule", health);
        checkLengths("validation rule", validation);
    }

    private void checkLengths(String what, List<String> sources) {
        for (int i = 0; i < sources.size(); i++) {
            int bytes = sources.get(i) == null ? 0 : sources.get(i).getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxRuleBytes) {
                throw new InvalidRuleException(what + " " + (i + 1) + " is " + bytes + " bytes long; at most "
                    + maxRuleBytes + " are allowed");
            }
        }
    }

    /** Checks each compiled rule's estimated cost and their sum; throws {@link InvalidRuleException} naming the rule. */
    public void checkCost(ReconcilePolicy policy) {
        long total = checkCosts("health rule", policy.healthRules().sources(),
            policy.healthRules().estimatedCosts(sizeBound));
        total = saturatedAdd(total, checkCosts("validation rule", policy.validationRules().sources(),
            policy.validationRules().estimatedCosts(sizeBound)));
        if (total > maxEstimatedPolicyCost) {
            throw new InvalidRuleException("the policy's rules have an estimated cost of " + total + " together, more than "
                + maxEstimatedPolicyCost + " (every string or list is taken to be " + sizeBound + " long)");
        }
    }

    private long checkCosts(String what, List<String> sources, List<Long> costs) {
        long total = 0;
        for (int i = 0; i < costs.size(); i++) {
            long cost = costs.get(i);
            if (cost > maxEstimatedCost) {
                throw new InvalidRuleException(what + " " + (i + 1) + " (" + shortened(sources.get(i))
                    + ") has an estimated cost of " + cost + ", more than " + maxEstimatedCost
                    + " (every string or list is taken to be " + sizeBound + " long)");
            }
            total = saturatedAdd(total, cost);
        }
        return total;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static String shortened(String source) {
        return source.length() <= 120 ? source : source.substring(0, 120) + "...";
    }
}
