package io.statesync.topology.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Value;
import io.statesync.config.AppConfig;
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
        long write = EncodedSize.of(effective, budget);
        long observation = observed == null ? 0 : EncodedSize.of(observed, budget);
        long paths = pathBytes(effective.getSpec(), budget);
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
     * repeat them per field; the walk is iterative and stops once the sum passes {@code limit}.
     */
    static long pathBytes(Value root, long limit) {
        long total = 0;
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {root, 0L});
        while (!stack.isEmpty() && total <= limit) {
            Object[] top = stack.pop();
            Object v = top[0] == null ? null : ((Value) top[0]).getValue();
            long prefix = (Long) top[1];
            if (v instanceof Map<?, ?> m && !m.isEmpty()) {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    stack.push(new Object[] {e.getValue(), prefix + e.getKey().toString().length() + 1});
                }
            } else if (v instanceof List<?> l && !l.isEmpty()) {
                for (Object c : l) {
                    stack.push(new Object[] {c, prefix + INDEX_BYTES});
                }
            } else {
                total += prefix;
            }
        }
        return total;
    }
}
