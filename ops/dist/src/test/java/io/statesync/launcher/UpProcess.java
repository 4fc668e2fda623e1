package io.statesync.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One {@code bin/statesync up} process of the built distribution, as the top-level {@code ./statesync} script runs
 * it once its build is current: {@code STATESYNC_REGISTRY_JAR} set, nothing else from the build's environment, free
 * ports given by the test.
 */
final class UpProcess {

    static final Duration READY_TIMEOUT = Duration.ofSeconds(240);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final Process process;
    final Path log;
    final int httpPort;
    /** Every descendant seen while it ran, for the clean-up after a failed test. */
    final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

    private UpProcess(Process process, Path log, int httpPort) {
        this.process = process;
        this.log = log;
        this.httpPort = httpPort;
    }

    /** Starts {@code up} on {@code dataDir} with its output in {@code workDir/logName}, and waits for /readyz. */
    static UpProcess start(Path workDir, Path dataDir, int kafkaPort, int registryPort, int httpPort, String logName)
        throws Exception {
        Path log = workDir.resolve(logName);
        ProcessBuilder pb = new ProcessBuilder(BuiltLauncher.LAUNCHER.toString(), "up", "--data-dir", dataDir.toString(),
            "--kafka-port", Integer.toString(kafkaPort), "--registry-port", Integer.toString(registryPort),
            "--http-port", Integer.toString(httpPort))
            .directory(workDir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        // Nothing from the environment of the build may change the instance: STATESYNC_* keys override its config.
        env.keySet().removeIf(k -> k.startsWith("STATESYNC_") || k.equals("JAVA_OPTS"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("STATESYNC_REGISTRY_JAR", registryJar().toString());
        return new UpProcess(pb.start(), log, httpPort);
    }

    /** Waits until /readyz answers 200. */
    UpProcess awaitReady() throws Exception {
        await("/readyz answering 200", READY_TIMEOUT, () -> {
            HttpResponse<Void> r = send(HttpRequest.newBuilder(uri("/readyz")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding());
            return r != null && r.statusCode() == 200;
        });
        return this;
    }

    /** As {@code ./statesync} does: the caller's STATESYNC_REGISTRY_JAR, else the jar the reactor built. */
    private static Path registryJar() {
        String configured = System.getenv("STATESYNC_REGISTRY_JAR");
        Path jar;
        if (configured != null && !configured.isBlank()) {
            jar = Path.of(configured);
        } else {
            String root = System.getProperty("statesync.repo.root", Path.of("../..").toAbsolutePath().normalize().toString());
            jar = Path.of(root, "ops", "registry", "target", "quarkus-app", "quarkus-run.jar");
        }
        assertThat(jar).as("the registry jar `up` starts (built by ops/registry; or set STATESYNC_REGISTRY_JAR)")
            .isRegularFile();
        return jar;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + httpPort + path);
    }

    /** The answer, or null while the instance cannot be reached. */
    static <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) throws InterruptedException {
        try {
            return HTTP.send(request, body);
        } catch (IOException e) {
            return null;
        }
    }

    /** The answer to {@code method path} with a JSON body (none when null), or null while unreachable. */
    HttpResponse<String> send(String method, String path, String contentType, String body) throws InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
        if (body != null) {
            b.header("Content-Type", contentType);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The resource as JSON, or null while it cannot be read (404, 503, connection refused). */
    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
        return r != null && r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    }

    void await(String what, Duration timeout, Condition condition) throws Exception {
        await(() -> what, timeout, condition);
    }

    /** Polls {@code condition} until it holds; fails at {@code timeout}, or at once if the launcher exited. */
    void await(Supplier<String> what, Duration timeout, Condition condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            process.descendants().forEach(seen::add);
            if (!process.isAlive()) {
                throw new AssertionError("`statesync up` exited with " + process.exitValue() + " while waiting for "
                    + what.get() + "; " + logTail());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no " + what.get() + " within " + timeout + "; " + logTail());
            }
            Thread.sleep(250);
        }
    }

    /**
     * SIGTERM to the launcher, which must stop everything it started and exit 0; its descendants (the broker and
     * the registry JVMs) are captured before the signal, and none may outlive it.
     */
    void stopWithSigtermAndExpectNothingLeft() throws Exception {
        List<ProcessHandle> descendants = process.descendants().toList();
        seen.addAll(descendants);
        System.out.println("`statesync up` (pid " + process.pid() + ") runs " + describe(descendants) + "; sending SIGTERM");
        assertThat(descendants).as("child processes of `statesync up` (broker and registry): %s", describe(descendants))
            .hasSizeGreaterThanOrEqualTo(2);
        process.destroy(); // SIGTERM
        assertThat(process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
            .as("`statesync up` exited within %s of SIGTERM; %s", STOP_TIMEOUT, logTail()).isTrue();
        assertThat(process.exitValue()).as("exit status of `statesync up` after SIGTERM; %s", logTail()).isZero();
        List<ProcessHandle> left = descendants.stream().filter(ProcessHandle::isAlive).toList();
        assertThat(left).as("processes `statesync up` started and left running after it exited: %s; %s",
            describe(left), logTail()).isEmpty();
    }

    /** Whatever a failed test left running: the launcher and everything it started. */
    void kill() {
        process.descendants().forEach(seen::add);
        seen.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "its output " + log + " ends with:\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "its output " + log + " is unreadable: " + e;
        }
    }

    private static String describe(List<ProcessHandle> processes) {
        return processes.stream().map(h -> h.pid() + " " + h.info().commandLine().orElse(h.info().command().orElse("?"))
            .replaceAll("-cp \\S+", "-cp ...")).collect(Collectors.joining("; ", "[", "]"));
    }

    @FunctionalInterface
    interface Condition {
        boolean holds() throws Exception;
    }
}
