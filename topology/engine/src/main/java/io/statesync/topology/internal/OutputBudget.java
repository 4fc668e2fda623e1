package io.statesync.topology.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Value;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.CompactMap;
import io.statesync.schemas.Values;
import io.statesync.serde.EncodedSize;
import io.statesync.topology.OutputLimits;
import io.statesync.topology.WriteAdmission;

/**
 * Admission's check that a write's outputs fit the topics ({@link OutputLimits}): the key's state record carries
 * the write four times (the Resource's spec and metadata, the desired side of status.diff, the last-applied spec, the
 * last correction's desired spec), the observation twice (the stored observation; the observed side of the diff and
 * the Resource's reported status, one from its state and one from its status), and
 * each field's path three times (the diff, the correction's patch, a conflict's report). The inputs alone fit by
 * construction; a spec whose many fields sit under long keys repeats those keys per field, and is refused here
 * before anything is produced, so its writer gets an answer instead of a task that cannot commit.
 */
public final class OutputBudget {

    private static final int WRITE_COPIES = 4;
    private static final int OBSERVATION_COPIES = 2;
    private static final int PATH_COPIES = 3;
    /** What an array index costs in a path: a few digits and a length. */
    private static final int INDEX_BYTES = 4;

    private final long budget;

    public OutputBudget(AppConfig config) {
        this.budget = (long) OutputLimits.INPUT_COPIES * config.getInt(AppConfig.SPEC_MAX_BYTES);
    }

    /** Null when the write's outputs fit; otherwise the refusal, with the estimate and the limit. */
    public WriteAdmission.Refused check(DesiredState effective, ObservedState observed) {
        long paths = pathBytes(effective.getSpec(), budget);
        // Every write is checked and nearly all are far below the budget, which a bound on the sizes shows without
        // encoding anything; only a write the bound does not clear is encoded to learn its exact sizes.
        long writeBound = EncodedSize.atMost(effective);
        long observationBound = observed == null ? 0 : EncodedSize.atMost(observed);
        if (writeBound <= budget && observationBound <= budget
            && WRITE_COPIES * writeBound + OBSERVATION_COPIES * observationBound + PATH_COPIES * paths <= budget) {
            return null;
        }
        long write = EncodedSize.of(effective, budget);
        long observation = observed == null ? 0 : EncodedSize.of(observed, budget);
        long predicted = WRITE_COPIES * write + OBSERVATION_COPIES * observation + PATH_COPIES * paths;
        if (predicted <= budget) {
            return null;
        }
        return new WriteAdmission.Refused(EventType.Invalid, WriteAdmission.OUTPUT_TOO_LARGE, "the write's outputs could"
            + " take more than the " + budget + " bytes a record of the key's state may (" + OutputLimits.INPUT_COPIES
            + " times spec.max.bytes): the write has " + write + " bytes, the observation " + observation
            + ", and the paths of the spec's fields, repeated per field, " + (paths > budget ? "more than " + budget : paths));
    }

    /**
     * The bytes of every leaf's path (its keys and indexes from the root), added up, as status.diff and a correction
     * repeat them per field; the walk is iterative, since a tree may be as deep as spec.max.depth, and stops once the
     * sum passes {@code limit}. It runs for every write, so its stack is two arrays rather than an object per entry.
     */
    static long pathBytes(Value root, long limit) {
        PathStack stack = new PathStack();
        stack.push(root, 0);
        long total = 0;
        while (stack.top > 0 && total <= limit) {
            int top = --stack.top;
            Value node = stack.nodes[top];
            stack.nodes[top] = null;
            if (!stack.pushChildren(node == null ? null : node.getValue(), stack.prefixes[top])) {
                total += stack.prefixes[top];
            }
        }
        return total;
    }

    /** The nodes still to visit, each with the bytes of its path. */
    private static final class PathStack {
        private Value[] nodes = new Value[16];
        private long[] prefixes = new long[16];
        private int top;

        /**
         * Pushes the children of a map or list and says whether there were any. Compact maps, which decoded trees
         * hold, and leaves are told apart by class before any interface is tested: a test against an interface
         * costs far more than one against a class.
         */
        boolean pushChildren(Object v, long prefix) {
            if (v instanceof CompactMap<?, ?> compact) {
                for (int i = 0; i < compact.size(); i++) {
                    push((Value) compact.valueAt(i), prefix + keyLength(compact.keyAt(i)) + 1);
                }
                return compact.size() > 0;
            } else if (Values.isScalar(v)) {
                return false;
            } else if (v instanceof List<?> items) {
                for (Object c : items) {
                    push((Value) c, prefix + INDEX_BYTES);
                }
                return !items.isEmpty();
            } else if (v instanceof Map<?, ?> entries) {
                for (Map.Entry<?, ?> e : entries.entrySet()) {
                    push((Value) e.getValue(), prefix + keyLength(e.getKey()) + 1);
                }
                return !entries.isEmpty();
            }
            return false;
        }

        void push(Value node, long prefix) {
            if (top == nodes.length) {
                nodes = Arrays.copyOf(nodes, top * 2);
                prefixes = Arrays.copyOf(prefixes, top * 2);
            }
            nodes[top] = node;
            prefixes[top++] = prefix;
        }
    }

    private static int keyLength(Object key) {
        return key instanceof String s ? s.length() : key.toString().length();
    }
}
