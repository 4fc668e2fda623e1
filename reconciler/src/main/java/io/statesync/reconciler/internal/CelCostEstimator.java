package io.statesync.reconciler.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;

/**
 * The worst-case cost of one compiled expression, as Kubernetes estimates an {@code x-kubernetes-validations} rule
 * before it accepts a CRD (cel-go's checker cost estimator, which this library lacks). A node costs one, building or
 * traversing a string or list costs a tenth of its size, a comprehension costs its body once per element. Specs have
 * no schema, so every string or list a variable reaches is taken to be as long as the spec size bound; a concatenation
 * is the sum of its operands, so repeated concatenation grows the estimate as it would grow the memory.
 */
final class CelCostEstimator {

    /** cel-go's StringTraversalCostFactor: the cost per character or element of building or scanning a value. */
    static final double TRAVERSAL = 0.1;
    /** cel-go's RegexStringLengthCostFactor: the cost per character of a regular expression. */
    private static final double REGEX = 0.25;
    private static final double LIST_CREATE = 10;
    private static final double MAP_CREATE = 30;

    /**
     * A cost and a bound on the value's size (characters or elements, whichever is larger); {@code input} when the
     * value comes from a variable, whose lists hold at most half their size in elements (each JSON element takes a
     * byte and a separator).
     */
    private record Estimate(double cost, double size, boolean input) {
    }

    private final double sizeBound;
    private final Map<String, Estimate> scope = new HashMap<>();
    private final Set<String> accumulators = new HashSet<>();

    private CelCostEstimator(long sizeBound) {
        this.sizeBound = sizeBound;
    }

    /** The estimated cost of {@code expr}, saturating at {@link Long#MAX_VALUE}. */
    static long estimate(CelExpr expr, long sizeBound) {
        double cost = new CelCostEstimator(sizeBound).visit(expr).cost();
        return cost >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(cost);
    }

    private Estimate visit(CelExpr e) {
        return switch (e.getKind()) {
            case CONSTANT -> new Estimate(0, constantSize(e.constant()), false);
            case IDENT -> scope.getOrDefault(e.ident().name(), new Estimate(1, sizeBound, true));
            case SELECT -> {
                Estimate o = visit(e.select().operand());
                yield new Estimate(o.cost() + 1, o.size(), o.input());
            }
            case CALL -> call(e);
            case LIST -> literal(e.list().elements(), LIST_CREATE);
            case MAP -> literal(mapParts(e), MAP_CREATE);
            case STRUCT -> literal(e.struct().entries().stream().map(CelExpr.CelStruct.Entry::value).toList(), MAP_CREATE);
            case COMPREHENSION -> comprehension(e.comprehension());
            default -> new Estimate(0, 1, false);
        };
    }

    private static double constantSize(CelConstant c) {
        return switch (c.getKind()) {
            case STRING_VALUE -> c.stringValue().length();
            case BYTES_VALUE -> c.bytesValue().size();
            default -> 1;
        };
    }

    private static List<CelExpr> mapParts(CelExpr e) {
        List<CelExpr> parts = new ArrayList<>();
        e.map().entries().forEach(en -> {
            parts.add(en.key());
            parts.add(en.value());
        });
        return parts;
    }

    private Estimate literal(List<CelExpr> parts, double create) {
        double cost = create;
        double size = parts.size();
        for (CelExpr p : parts) {
            Estimate x = visit(p);
            cost += x.cost();
            size = Math.max(size, x.size());
        }
        return new Estimate(cost, size, false);
    }

    private Estimate comprehension(CelExpr.CelComprehension c) {
        Estimate range = visit(c.iterRange());
        Estimate init = visit(c.accuInit());
        double iterations = range.input() ? Math.ceil(range.size() / 2) : range.size();
        Map<String, Estimate> saved = new HashMap<>(scope);
        Estimate element = new Estimate(1, range.size(), range.input());
        scope.put(c.iterVar(), element);
        if (!c.iterVar2().isEmpty()) {
            scope.put(c.iterVar2(), element);
        }
        scope.put(c.accuVar(), new Estimate(1, Math.max(init.size(), range.size()), false));
        boolean added = accumulators.add(c.accuVar());
        double perIteration = visit(c.loopCondition()).cost() + visit(c.loopStep()).cost();
        Estimate result = visit(c.result());
        if (added) {
            accumulators.remove(c.accuVar());
        }
        scope.clear();
        scope.putAll(saved);
        return new Estimate(range.cost() + init.cost() + iterations * perIteration + result.cost(), result.size(), false);
    }

    private Estimate call(CelExpr e) {
        CelExpr.CelCall call = e.call();
        List<CelExpr> operands = new ArrayList<>();
        call.target().ifPresent(operands::add);
        operands.addAll(call.args());
        List<Estimate> a = new ArrayList<>(operands.size());
        double argCost = 0;
        double maxSize = 1;
        for (CelExpr o : operands) {
            Estimate x = visit(o);
            a.add(x);
            argCost += x.cost();
            maxSize = Math.max(maxSize, x.size());
        }
        return switch (call.function()) {
            case "_?_:_" -> new Estimate(a.get(0).cost() + Math.max(a.get(1).cost(), a.get(2).cost()),
                Math.max(a.get(1).size(), a.get(2).size()), a.get(1).input() || a.get(2).input());
            case "_+_" -> add(operands.get(0), a.get(0), a.get(1), argCost);
            case "_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_" ->
                new Estimate(argCost + 1 + TRAVERSAL * Math.min(a.get(0).size(), a.get(1).size()), 1, false);
            case "startsWith", "endsWith" -> new Estimate(argCost + 1 + TRAVERSAL * a.get(1).size(), 1, false);
            case "contains" -> new Estimate(argCost + 1 + TRAVERSAL * (a.get(0).size() + a.get(1).size()), 1, false);
            case "matches" -> new Estimate(argCost + 1
                + Math.ceil(TRAVERSAL * a.get(0).size()) * Math.ceil(REGEX * a.get(a.size() - 1).size()), 1, false);
            case "@in" -> new Estimate(argCost + 1 + a.get(1).size(), 1, false);
            case "size", "_&&_", "_||_", "!_", "int", "uint", "double", "bool" -> new Estimate(argCost + 1, 1, false);
            case "string", "bytes" -> new Estimate(argCost + 1 + TRAVERSAL * maxSize, maxSize, a.get(0).input());
            case "_[_]" -> new Estimate(argCost + 1, a.get(0).size(), a.get(0).input());
            default -> new Estimate(argCost + 1, maxSize, false);
        };
    }

    /**
     * A concatenation is as long as its operands together and costs a tenth of that; appending to a comprehension's
     * accumulator (what map and filter compile to) is bounded by the accumulator instead.
     */
    private Estimate add(CelExpr left, Estimate l, Estimate r, double argCost) {
        if (left.getKind() == CelExpr.ExprKind.Kind.IDENT && accumulators.contains(left.ident().name())) {
            return new Estimate(argCost + 1 + TRAVERSAL * r.size(), l.size(), false);
        }
        double size = l.size() + r.size();
        return new Estimate(argCost + 1 + TRAVERSAL * size, size, false);
    }
}
