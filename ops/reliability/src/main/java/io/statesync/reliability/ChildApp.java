package io.statesync.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.embedded.ChildJvm;
import io.statesync.embedded.FreePorts;
import io.statesync.server.ServerConfig;

/**
 * statesync as a real process ({@code StatesyncCli run -D ...} on this JVM's class path), so that it can be killed
 * with SIGKILL. It runs under the embedded module's parent watchdog, so it never outlives the test JVM.
 */
final class ChildApp implements AutoCloseable {

    private final List<String> command;
    private final Path log;
    private final int httpPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private Process process;
    private volatile long streamsStartedNanos;
    private Duration streamsStartToReady = Duration.ZERO;

    ChildApp(AppConfig config, Path log) {
        this(config, log, List.of());
    }

    /** @param jvmOptions more options for the child JVM, e.g. {@code -Dlog.level=DEBUG} */
    ChildApp(AppConfig config, Path log, List<String> jvmOptions) {
        this.httpPort = FreePorts.pick();
        this.log = log;
        List<String> args = new ArrayList<>(List.of("run"));
        for (Map.Entry<String, Object> e : config.originals().entrySet()) {
            if (!e.getKey().equals(ServerConfig.HTTP_PORT)) {
                args.add("-D");
                args.add(e.getKey() + "=" + e.getValue());
            }
        }
        args.add("-D");
        args.add(ServerConfig.HTTP_PORT + "=" + httpPort);
        List<String> options = new ArrayList<>(List.of("-Xmx256m", "-XX:+UseSerialGC"));
        options.addAll(jvmOptions);
        this.command = ChildJvm.command(options, ChildJvm.currentClassPath(),
            "io.statesync.app.StatesyncMain", args);
    }

    /** Starts the process and returns how long it took until /readyz answered 200. */
    Duration startAndAwaitReady(Duration timeout) throws IOException {
        long start = System.nanoTime();
        streamsStartedNanos = 0;
        process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        // A child that exits (e.g. on a config error) fails fast instead of running out the timeout.
        if (!Waits.until(() -> !process.isAlive() || readyNotingStreamsStart(), timeout) || !process.isAlive()) {
            throw new IllegalStateException("statesync child not ready within " + timeout + "; its log ends with:\n" + logTail());
        }
        long now = System.nanoTime();
        streamsStartToReady = Duration.ofNanos(now - (streamsStartedNanos == 0 ? now : streamsStartedNanos));
        return Duration.ofNanos(now - start);
    }

    /**
     * Of the last start: from the first /readyz answer that no longer says "streams not started" (the JVM has
     * started, loaded its classes and run its start-up steps, which a busy machine stretches most) to /readyz 200.
     * What remains is Kafka's part: joining the group (waiting out a dead member's session), fencing the previous
     * producer, restoring the stores, loading the resource view. Polled, so short by up to one poll.
     */
    Duration streamsStartToReady() {
        return streamsStartToReady;
    }

    private boolean readyNotingStreamsStart() {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/readyz"))
                .timeout(Duration.ofSeconds(1)).build();
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (streamsStartedNanos == 0 && !r.body().contains("streams not started")) {
                streamsStartedNanos = System.nanoTime();
            }
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String logTail() throws IOException {
        List<String> lines = java.nio.file.Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** SIGKILL: no shutdown hook, no flush, no transaction abort. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    boolean ready() {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/readyz"))
                .timeout(Duration.ofSeconds(1)).build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    int httpPort() {
        return httpPort;
    }

    /** SIGTERM: the shutdown hook closes the streams and leaves the group; SIGKILL if that takes over 15 s. */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
