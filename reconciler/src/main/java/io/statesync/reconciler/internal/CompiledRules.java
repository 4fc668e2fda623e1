package io.statesync.reconciler.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Rules of one kind compiled once, when their policy is built. Two instances are equal when their rules are,
 * whatever their compiled programs, so that policies compare by what they say.
 *
 * @param <R> the rule's type
 */
public abstract class CompiledRules<R> {

    private final List<R> rules;
    private final List<CelPrograms.Program> programs;

    /**
     * Compiles each rule's expression over {@code variables}; the first that does not compile throws
     * {@link io.statesync.reconciler.InvalidRuleException}, naming it "{@code what} n".
     */
    protected CompiledRules(List<R> rules, Function<R, String> expression, List<String> variables, String what) {
        this.rules = List.copyOf(rules);
        List<CelPrograms.Program> compiled = new ArrayList<>(rules.size());
        for (int i = 0; i < this.rules.size(); i++) {
            compiled.add(CelPrograms.compile(variables, what + " " + (i + 1), expression.apply(this.rules.get(i))));
        }
        this.programs = List.copyOf(compiled);
    }

    public final List<R> rules() {
        return rules;
    }

    public final boolean isEmpty() {
        return rules.isEmpty();
    }

    /** Each rule's expression, in rule order. */
    public final List<String> sources() {
        return programs.stream().map(CelPrograms.Program::source).toList();
    }

    /** Each rule's worst-case cost when no string or list is longer than {@code sizeBound}, in rule order. */
    public final List<Long> estimatedCosts(long sizeBound) {
        return programs.stream().map(p -> p.estimatedCost(sizeBound)).toList();
    }

    protected final List<CelPrograms.Program> programs() {
        return programs;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && rules.equals(((CompiledRules<?>) o).rules);
    }

    @Override
    public final int hashCode() {
        return rules.hashCode();
    }

    @Override
    public final String toString() {
        return rules.toString();
    }
}
