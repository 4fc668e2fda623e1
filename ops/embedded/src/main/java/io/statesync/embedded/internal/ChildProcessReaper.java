package io.statesync.embedded.internal;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stops every child still registered when this JVM exits (normal exit, Ctrl-C, SIGTERM), so that a broker or
 * registry JVM is never left running after the process that owned it. A SIGKILL of this JVM cannot be caught here;
 * {@link ParentWatchdog} in the child covers that case.
 */
final class ChildProcessReaper {
    private static final Set<ProcessHandle> CHILDREN = ConcurrentHashMap.newKeySet();
    private static final Duration GRACE = Duration.ofSeconds(10);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcessReaper::reapAll, "statesync-child-reaper"));
    }

    private ChildProcessReaper() {
    }

    static void register(ProcessHandle child) {
        CHILDREN.add(child);
    }

    static void unregister(ProcessHandle child) {
        CHILDREN.remove(child);
    }

    /** The children this JVM still owns; tests use it to prove nothing is left behind. */
    static Set<ProcessHandle> children() {
        CHILDREN.removeIf(h -> !h.isAlive());
        return Set.copyOf(CHILDREN);
    }

    private static void reapAll() {
        // Ask all of them first so that they shut down in parallel, then wait for each in turn.
        List<ProcessHandle> alive = CHILDREN.stream().filter(ProcessHandle::isAlive).toList();
        alive.forEach(ProcessHandle::destroy);
        alive.forEach(child -> ChildProcess.terminate(child, GRACE));
    }
}
