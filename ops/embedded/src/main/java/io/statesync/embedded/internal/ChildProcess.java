package io.statesync.embedded.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child JVM (or any command) whose output goes to a log file and which is tracked by PID so that it can be
 * stopped gracefully, then forcibly, and is reaped by a shutdown hook if the parent exits first.
 */
public final class ChildProcess {
    private static final Logger log = LoggerFactory.getLogger(ChildProcess.class);
    private static final Optional<String> SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid")
            .filter(p -> Files.isExecutable(Path.of(p))).findFirst();

    private final String name;
    private final Process process;
    private final ProcessHandle handle;
    private final Path logFile;

    private ChildProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.handle = process.toHandle();
        this.logFile = logFile;
    }

    /** Starts {@code command}, appending stdout and stderr to {@code logFile}. */
    public static ChildProcess start(String name, List<String> command, Map<String, String> env, Path logFile) {
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            ProcessBuilder builder = new ProcessBuilder(inOwnSession(command))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
            builder.environment().putAll(env);
            ChildProcess child = new ChildProcess(name, builder.start(), logFile);
            ChildProcessReaper.register(child.handle);
            log.debug("Started {} (pid {}), output in {}", name, child.pid(), logFile);
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name + ": " + command, e);
        }
    }

    /**
     * Ctrl-C in a terminal signals the whole foreground process group, so a child in the parent's group would stop
     * at the same moment as the parent instead of after it: the broker would be gone before the pipeline could
     * commit and leave its consumer group. {@code setsid} execs in place (a child is never a group leader), so the
     * PID stays the one we track. Where {@code setsid} is missing, the child stays in the parent's group.
     */
    static List<String> inOwnSession(List<String> command) {
        if (SETSID.isEmpty()) {
            return command;
        }
        List<String> detached = new ArrayList<>(command.size() + 1);
        detached.add(SETSID.get());
        detached.addAll(command);
        return detached;
    }

    /** Runs a short-lived command to completion, failing if it exits non-zero or outlives {@code timeout}. */
    public static void run(String name, List<String> command, Path logFile, Duration timeout) {
        ChildProcess child = start(name, command, Map.of(), logFile);
        try {
            if (!child.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                child.stop(Duration.ofSeconds(5));
                throw child.failure("did not finish within " + timeout);
            }
            if (child.process.exitValue() != 0) {
                throw child.failure("exited with code " + child.process.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            child.stop(Duration.ofSeconds(5));
            throw child.failure("was interrupted");
        } finally {
            ChildProcessReaper.unregister(child.handle);
        }
    }

    public long pid() {
        return handle.pid();
    }

    public boolean isAlive() {
        return handle.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /** Asks the process to exit (SIGTERM), waits up to {@code grace}, then kills it and everything it started. */
    public void stop(Duration grace) {
        List<ProcessHandle> descendants = handle.descendants().toList();
        terminate(handle, grace);
        descendants.forEach(ProcessHandle::destroyForcibly);
        ChildProcessReaper.unregister(handle);
        log.debug("Stopped {} (pid {})", name, pid());
    }

    /** An exception naming the process, the reason and the end of its log, for a failure the user must debug. */
    public IllegalStateException failure(String reason) {
        return new IllegalStateException(name + " (pid " + pid() + ") " + reason + "; last lines of " + logFile + ":\n"
                + tail(logFile, 30));
    }

    static void terminate(ProcessHandle process, Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(process, grace)) {
            process.destroyForcibly();
            awaitExit(process, Duration.ofSeconds(10));
        }
    }

    private static boolean awaitExit(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", new ArrayList<>(all.subList(Math.max(0, all.size() - lines), all.size())));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
