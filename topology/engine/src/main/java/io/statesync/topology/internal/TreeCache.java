package io.statesync.topology.internal;

import java.util.function.Function;

import io.statesync.avro.Value;

/**
 * The Java trees of recently converted {@link Value}s, keyed by identity. A reconcile converts the same spec several
 * times (admission checks it, the plan reads it as the desired spec and, after a correction, as the last-applied spec),
 * and the decoded state keeps those very instances between events, so the conversion is paid once per instance.
 *
 * <p>Sound only because nothing mutates a {@code Value} after it is built, and the reconciler never mutates its input
 * trees (it copies before patching). Direct-mapped and fixed in size: a collision just converts again. One per thread,
 * since stream threads never share a task's state.
 */
final class TreeCache {

    private static final int SLOTS = 4096;
    private static final ThreadLocal<TreeCache> PER_THREAD = ThreadLocal.withInitial(TreeCache::new);

    private final Value[] keys = new Value[SLOTS];
    private final Object[] trees = new Object[SLOTS];

    static TreeCache current() {
        return PER_THREAD.get();
    }

    Object tree(Value v, Function<Value, Object> convert) {
        int slot = System.identityHashCode(v) & (SLOTS - 1);
        if (keys[slot] == v) {
            return trees[slot];
        }
        Object tree = convert.apply(v);
        keys[slot] = v;
        trees[slot] = tree;
        return tree;
    }
}
