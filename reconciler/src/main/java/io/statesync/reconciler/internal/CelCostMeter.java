package io.statesync.reconciler.internal;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import dev.cel.common.ast.CelExpr;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationListener;

/**
 * Charges one evaluation as Kubernetes' runtime cost tracker does, and stops it past its limit or past its number of
 * evaluated nodes: each node costs one,
 * and a call that builds or scans strings or lists costs a tenth of their size, so that a rule concatenating a large
 * string with itself is stopped after a few copies rather than after gigabytes of them. The listener runs after each
 * node, so a call is charged once its value exists: at most one value past the limit is ever built. Sizes of the
 * values seen are kept by expression id, since a call's operands are evaluated (and reported) just before it.
 */
final class CelCostMeter implements CelEvaluationListener {

    private final long limit;
    private final long stepLimit;
    private final Map<Long, Integer> sizes = new HashMap<>();
    private double cost;
    private long steps;

    CelCostMeter(long limit, long stepLimit) {
        this.limit = limit;
        this.stepLimit = stepLimit;
    }

    @Override
    public void callback(CelExpr expr, Object value) {
        cost += 1;
        steps++;
        int size = sizeOf(value);
        if (expr.getKind() == CelExpr.ExprKind.Kind.CALL) {
            cost += CelCostEstimator.TRAVERSAL * charged(expr.call(), size);
        }
        if (size > 0) {
            sizes.put(expr.id(), size);
        }
        if (cost > limit || steps > stepLimit) {
            throw new CostLimitExceeded();
        }
    }

    /** The size a call pays for: what it built, or what it scanned. */
    private double charged(CelExpr.CelCall call, int resultSize) {
        return switch (call.function()) {
            case "_+_" -> appendsToAccumulator(call) ? operandSize(call.args().get(1)) : resultSize;
            case "string", "bytes" -> resultSize;
            case "startsWith", "endsWith" -> operandSize(call.args().get(0));
            case "contains", "matches", "_==_", "_!=_", "@in", "_<_", "_<=_", "_>_", "_>=_" -> operandSizes(call);
            default -> 0;
        };
    }

    /** map and filter append to their hidden accumulator, which this runtime keeps as a view rather than a copy. */
    private static boolean appendsToAccumulator(CelExpr.CelCall call) {
        CelExpr left = call.args().get(0);
        return left.getKind() == CelExpr.ExprKind.Kind.IDENT
            && (left.ident().name().startsWith("@") || left.ident().name().equals("__result__"));
    }

    private double operandSizes(CelExpr.CelCall call) {
        double total = call.target().map(this::operandSize).orElse(0);
        for (CelExpr a : call.args()) {
            total += operandSize(a);
        }
        return total;
    }

    private int operandSize(CelExpr operand) {
        return sizes.getOrDefault(operand.id(), 0);
    }

    private static int sizeOf(Object value) {
        if (value instanceof String s) {
            return s.length();
        }
        if (value instanceof Collection<?> c) {
            return c.size();
        }
        if (value instanceof Map<?, ?> m) {
            return m.size();
        }
        if (value instanceof CelByteString b) {
            return b.size();
        }
        if (value instanceof com.google.protobuf.ByteString b) {
            return b.size();
        }
        return 0;
    }

    /** Thrown from the listener to stop an evaluation that went over its cost. */
    static final class CostLimitExceeded extends RuntimeException {
        CostLimitExceeded() {
            super("cost limit exceeded", null, false, false);
        }
    }
}
