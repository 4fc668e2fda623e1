package io.statesync.embedded.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;

/**
 * Entry point of a child JVM: {@code ParentWatchdog <parent-pid> <main-class> <args...>}. It runs the real main class
 * and exits this JVM when the parent process disappears, even if the parent was killed with SIGKILL and so never ran
 * its shutdown hook. {@code System.exit} still runs the child's own shutdown hooks, so the broker closes cleanly.
 */
public final class ParentWatchdog {
    private ParentWatchdog() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length < 2) {
            System.err.println("usage: ParentWatchdog <parent-pid> <main-class> [args...]");
            System.exit(2);
        }
        watch(Long.parseLong(args[0]));
        Method main = Class.forName(args[1]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void watch(long parentPid) {
        Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
        if (parent.isEmpty()) {
            System.err.println("parent process " + parentPid + " is gone; exiting");
            System.exit(1);
        }
        parent.get().onExit().thenRun(() -> {
            System.err.println("parent process " + parentPid + " exited; shutting down");
            System.exit(0);
        });
    }
}
