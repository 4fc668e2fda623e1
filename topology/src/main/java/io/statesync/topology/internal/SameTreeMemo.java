package io.statesync.topology.internal;

import io.statesync.avro.Value;
import io.statesync.schemas.Values;

/**
 * {@link Values#sameTree} with the recent answers remembered per pair of instances. A key's observed state is
 * compared with its spec when the observation arrives (to share the spec's instance when they are equal), and again
 * each time the state is encoded (to write it once); when they differ (drift, or a spec that moved on) the second
 * walk repeated the first, at up to 5% of the stream threads' time in the latency suite.
 *
 * <p>Sound only because nothing mutates a {@code Value} after it is built (as {@link TreeCache}). Direct-mapped and
 * fixed in size: a collision just compares again. Sized so that an answer outlives a commit interval's records on a
 * busy thread (the encoding comes at the commit); 1,024 slots kept only about half of them at 12,000 writes/s. One
 * per thread, since stream threads never share a task's state. Only "different" is ever remembered from outside a
 * walk, and a wrong "different" would cost only a state written less compactly.
 */
final class SameTreeMemo {

    private static final int SLOTS = 4096;
    private static final ThreadLocal<SameTreeMemo> PER_THREAD = ThreadLocal.withInitial(SameTreeMemo::new);

    private final Value[] firsts = new Value[SLOTS];
    private final Value[] seconds = new Value[SLOTS];
    private final boolean[] answers = new boolean[SLOTS];

    private SameTreeMemo() {
    }

    /** Whether the two trees are equal, as {@link Values#sameTree}; by identity, or from memory when asked before. */
    static boolean sameTree(Value a, Value b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        return PER_THREAD.get().lookup(a, b);
    }

    /** Records an answer known without a walk: {@code a} is the previous spec's instance, and {@code b} a changed spec. */
    static void rememberDifferent(Value a, Value b) {
        if (a != null && b != null && a != b) {
            PER_THREAD.get().remember(slot(a, b), a, b, false);
        }
    }

    private boolean lookup(Value a, Value b) {
        int slot = slot(a, b);
        if (firsts[slot] == a && seconds[slot] == b) {
            return answers[slot];
        }
        boolean same = Values.sameTree(a, b);
        remember(slot, a, b, same);
        return same;
    }

    private void remember(int slot, Value a, Value b, boolean same) {
        firsts[slot] = a;
        seconds[slot] = b;
        answers[slot] = same;
    }

    private static int slot(Value a, Value b) {
        return (System.identityHashCode(a) * 31 + System.identityHashCode(b)) & (SLOTS - 1);
    }
}
