package io.statesync.topology.internal;

import java.util.List;
import java.util.Map;

import io.statesync.avro.Value;
import io.statesync.reconciler.CompactMap;
import io.statesync.schemas.Values;

/**
 * Puts {@link CompactMap}s in place of the hash maps Avro's reader decodes a {@link Value}'s maps into. A decoded
 * spec lives as long as its key's state and is iterated again and again (converted to the reconciler's trees,
 * compared with observations, encoded for every Resource, correction and state write); Avro's fast reader builds
 * every map as a 16-slot {@code HashMap}, whose iteration scans all the slots. The walk doubles as the input's depth
 * check, which visits every node anyway.
 */
final class CompactValues {

    /** Deeper than this a walk recurses no further: stream threads run on the default stack size. */
    static final int RECURSION_LIMIT = 512;

    private CompactValues() {
    }

    /** Compacts the maps of a tree decoded from the state store, whose depth the input's check has bounded. */
    static void compact(Value root) {
        compactWithin(root, RECURSION_LIMIT);
    }

    /**
     * Compacts the maps under {@code node}, which counts as one level, down to {@code levels} levels, and says
     * whether the tree fits in them. The recursion stops one level past the limit, so a hostile tree cannot
     * overflow the stack; a tree that does not fit is left partly compacted, which changes none of its content.
     */
    static boolean compactWithin(Value node, int levels) {
        if (node == null) {
            return true;
        }
        if (levels == 0) {
            return false;
        }
        Object v = node.getValue();
        if (Values.isScalar(v)) {
            return true;
        }
        if (v instanceof List<?> items) {
            for (Object item : items) {
                if (!compactWithin((Value) item, levels - 1)) {
                    return false;
                }
            }
        } else if (v instanceof Map<?, ?> entries) {
            for (Object child : entries.values()) {
                if (!compactWithin((Value) child, levels - 1)) {
                    return false;
                }
            }
            node.setValue(CompactMap.copyOf(entries));
        }
        return true;
    }
}
