package io.statesync.reconciler.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.google.protobuf.NullValue;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.statesync.reconciler.InvalidRuleException;

/**
 * Compiles and runs the CEL expressions of kind policies, with the limits that keep a policy from stalling a
 * reconcile, as Kubernetes limits CRD validation rules: a bounded expression size at compile time, an estimated
 * worst-case cost the REST API checks before it accepts a policy ({@link Program#estimatedCost}), and at run time a
 * cost limit that charges each evaluated node and, for each string or list a call builds or scans, a tenth of its size
 * ({@link CelCostMeter}), plus a bound on comprehension iterations. Every expression must return a bool; every
 * variable is dynamically typed, since specs and observed states have no schema.
 */
public final class CelPrograms {

    /**
     * The cost one rule may take per evaluation: Kubernetes' per-call limit, in the same units (a node costs one, a
     * string or list built or scanned a tenth of its size).
     */
    public static final long COST_LIMIT = 1_000_000;
    /**
     * Evaluated nodes one rule may take per evaluation: a traced node costs this runtime far more time than a
     * character copied, so nodes are also bounded on their own, below what the cost limit alone would allow.
     */
    public static final long STEP_LIMIT = 100_000;
    /** The longest expression accepted, in code points. */
    public static final int MAX_EXPRESSION_LENGTH = 5_000;
    /** Each iteration evaluates at least one node, so the cost limit is always reached first. */
    private static final int MAX_COMPREHENSION_ITERATIONS = (int) STEP_LIMIT;

    private static final CelOptions OPTIONS = CelOptions.current()
        .enableHeterogeneousNumericComparisons(true)
        .comprehensionMaxIterations(MAX_COMPREHENSION_ITERATIONS)
        .maxExpressionCodePointSize(MAX_EXPRESSION_LENGTH)
        .build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().setOptions(OPTIONS).build();

    /** A compiled expression and whether it reads a given variable (a transition rule reads oldSelf). */
    public record Program(String source, CelRuntime.Program program, Set<String> variablesRead, CelAbstractSyntaxTree ast) {

        /** The worst-case cost of one evaluation when no string or list is longer than {@code sizeBound}. */
        public long estimatedCost(long sizeBound) {
            return CelCostEstimator.estimate(ast.getExpr(), sizeBound);
        }
    }

    /** Thrown when an evaluation fails: a missing field, a type error, the cost limit. */
    public static final class EvaluationException extends Exception {
        EvaluationException(String message) {
            super(message);
        }
    }

    private CelPrograms() {
    }

    /** One compiler per set of variables; a compiler is immutable and thread-safe. */
    private static final Map<List<String>, CelCompiler> COMPILERS = new ConcurrentHashMap<>();

    private static CelCompiler compiler(List<String> variables) {
        return COMPILERS.computeIfAbsent(List.copyOf(variables), vars -> {
            CelCompilerBuilder b = CelCompilerFactory.standardCelCompilerBuilder().setOptions(OPTIONS)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS).setResultType(SimpleType.BOOL);
            for (String v : vars) {
                b.addVar(v, (CelType) SimpleType.DYN);
            }
            return b.build();
        });
    }

    /**
     * Compiles {@code source}, a bool expression over {@code variables} (each dynamically typed); {@code what} names
     * it in the error, e.g. "health rule 2".
     */
    public static Program compile(List<String> variables, String what, String source) {
        if (source == null || source.isBlank()) {
            throw new InvalidRuleException(what + ": the expression is empty");
        }
        try {
            CelAbstractSyntaxTree ast = compiler(variables).compile(source).getAst();
            Set<String> read = new java.util.HashSet<>();
            ast.getReferenceMap().values().forEach(r -> read.add(r.name()));
            return new Program(source, RUNTIME.createProgram(ast), Set.copyOf(read), ast);
        } catch (CelValidationException | CelEvaluationException e) {
            throw new InvalidRuleException(what + " (" + source + "): " + e.getMessage());
        }
    }

    /** Runs {@code p}: true or false, or the reason it could not tell. */
    public static boolean evaluate(Program p, Map<String, ?> activation) throws EvaluationException {
        try {
            Object result = p.program().trace(activation, new CelCostMeter(COST_LIMIT, STEP_LIMIT));
            if (result instanceof Boolean b) {
                return b;
            }
            throw new EvaluationException("the expression returned " + result + ", not a bool");
        } catch (CelCostMeter.CostLimitExceeded e) {
            throw new EvaluationException(costMessage());
        } catch (CelEvaluationException e) {
            if (e.getCause() instanceof CelCostMeter.CostLimitExceeded) {
                throw new EvaluationException(costMessage());
            }
            throw new EvaluationException(e.getMessage());
        } catch (RuntimeException e) {
            throw new EvaluationException(String.valueOf(e.getMessage()));
        }
    }

    private static String costMessage() {
        return "cost limit exceeded: more than " + STEP_LIMIT + " evaluation steps or a cost of more than " + COST_LIMIT
            + " (a step costs 1, a string or list built or scanned a tenth of its size)";
    }

    /**
     * A reconciler tree as CEL reads it: JSON null becomes CEL's null. Maps and lists without a null inside are
     * passed as they are, so a spec is not copied for each evaluation.
     */
    public static Object value(Object tree) {
        if (tree == null) {
            return NullValue.NULL_VALUE;
        }
        if (tree instanceof Map<?, ?> m && containsNull(m.values())) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), value(v)));
            return out;
        }
        if (tree instanceof List<?> l && containsNull(l)) {
            List<Object> out = new ArrayList<>(l.size());
            l.forEach(v -> out.add(value(v)));
            return out;
        }
        return tree;
    }

    private static boolean containsNull(Iterable<?> items) {
        for (Object o : items) {
            if (o == null || (o instanceof Map<?, ?> m && containsNull(m.values())) || (o instanceof List<?> l && containsNull(l))) {
                return true;
            }
        }
        return false;
    }
}
