package io.statesync.embedded.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** A long-running child service that can be started, awaited, stopped and started again. */
public final class ManagedChild {
    private final String name;
    private final Path logFile;
    private final Duration stopGrace;
    private ChildProcess process;

    public ManagedChild(String name, Path logFile, Duration stopGrace) {
        this.name = name;
        this.logFile = logFile;
        this.stopGrace = stopGrace;
    }

    /**
     * Starts {@code command} and runs {@code awaitReady}, which is given a "still alive" check and throws
     * {@link IllegalStateException} when the service does not come up; then the child is stopped and the error
     * carries the end of its log.
     */
    public synchronized long start(List<String> command, Map<String, String> env, Consumer<BooleanSupplier> awaitReady) {
        process = ChildProcess.start(name, command, env, logFile);
        try {
            awaitReady.accept(process::isAlive);
            return process.pid();
        } catch (IllegalStateException e) {
            ChildProcess failed = process;
            stop();
            throw failed.failure("did not become ready: " + e.getMessage());
        }
    }

    public synchronized void stop() {
        if (process != null) {
            process.stop(stopGrace);
            process = null;
        }
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public synchronized OptionalLong pid() {
        return isRunning() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
    }
}
