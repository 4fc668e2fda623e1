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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code statesync up} as the README runs it: the distribution's {@code bin/statesync up} with
 * {@code STATESYNC_REGISTRY_JAR} set, exactly what the top-level {@code ./statesync} script executes once its build
 * is current. (That script itself would run {@code mvn install} here, since no build stamp exists under
 * {@code mvn verify}.) Free ports and a temporary data directory; REST, the demo agent, SIGTERM (what Ctrl-C and a
 * service manager send) and a restart on the same data.
 */
class StatesyncUpIT {

    private static final String RESOURCE = "/api/v1/resources/WebApp/default/shop";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(240);
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(120);

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path workDir;

    private final List<Up> started = new ArrayList<>();

    @Test
    void shouldServeAndSyncStopCleanlyOnSigtermAndKeepTheResourceAcrossARestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        int kafkaPort = freePort();
        int registryPort = freePort();
        int httpPort = freePort();

        Up first = start(dataDir, kafkaPort, registryPort, httpPort, "up-1.log");
        HttpRequest putRequest = HttpRequest.newBuilder(first.uri(RESOURCE)).header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(30))
            .PUT(HttpRequest.BodyPublishers.ofString("{\"spec\":{\"image\":\"nginx:1.21\",\"replicas\":2}}")).build();
        // 503 and 504 ask the client to send again (an identical write is a no-op); any other answer is final.
        List<HttpResponse<String>> answers = new ArrayList<>();
        first.await(() -> "PUT " + RESOURCE + " answered other than 503/504 (answers: " + answers + ")", WRITE_TIMEOUT, () -> {
            HttpResponse<String> r = send(putRequest, HttpResponse.BodyHandlers.ofString());
            if (r != null) {
                answers.add(r);
            }
            return r != null && r.statusCode() != 503 && r.statusCode() != 504;
        });
        HttpResponse<String> put = answers.get(answers.size() - 1);
        assertThat(put.statusCode()).as("PUT %s answered %s", RESOURCE, put.body()).isIn(200, 201);
        String uid = JSON.readTree(put.body()).path("metadata").path("uid").asText();
        assertThat(uid).as("uid in the PUT's answer %s", put.body()).isNotBlank();

        // The demo agent applies the correction (after a simulated latency, sometimes failing once) and reports back.
        JsonNode[] last = new JsonNode[1];
        first.await(() -> RESOURCE + " Synced through the demo agent (last read: " + last[0] + ")", SYNC_TIMEOUT, () -> {
            last[0] = get(first, RESOURCE);
            return last[0] != null && "Synced".equals(last[0].path("status").path("syncStatus").asText());
        });
        assertThat(last[0].path("metadata").path("uid").asText()).isEqualTo(uid);
        assertServesTheWebUi(first);
        // The distribution carries the Kubernetes API: the same object under its Kubernetes path.
        JsonNode kube = get(first, "/apis/statesync.io/v1/namespaces/default/webapps/shop");
        assertThat(kube).as("the Kubernetes API's GET of the resource").isNotNull();
        assertThat(kube.path("kind").asText()).isEqualTo("WebApp");
        assertThat(kube.path("metadata").path("uid").asText()).isEqualTo(uid);

        first.stopWithSigtermAndExpectNothingLeft();

        Up second = start(dataDir, kafkaPort, registryPort, httpPort, "up-2.log");
        JsonNode[] again = new JsonNode[1];
        second.await(RESOURCE + " readable after the restart on the same data directory", WRITE_TIMEOUT,
            () -> (again[0] = get(second, RESOURCE)) != null);
        assertThat(again[0].path("metadata").path("uid").asText()).as("uid after the restart").isEqualTo(uid);
        assertThat(again[0].path("spec").path("image").asText()).isEqualTo("nginx:1.21");

        second.stopWithSigtermAndExpectNothingLeft();
    }

    /** Whatever a failed test left running: the launcher and everything it started. */
    @AfterEach
    void killLeftovers() {
        for (Up up : started) {
            up.process.descendants().forEach(up.seen::add);
            up.seen.forEach(ProcessHandle::destroyForcibly);
            up.process.destroyForcibly();
        }
    }

    private Up start(Path dataDir, int kafkaPort, int registryPort, int httpPort, String logName) throws Exception {
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
        Up up = new Up(pb.start(), log, httpPort);
        started.add(up);
        up.await("/readyz answering 200", READY_TIMEOUT, () -> {
            HttpResponse<Void> r = send(HttpRequest.newBuilder(up.uri("/readyz")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding());
            return r != null && r.statusCode() == 200;
        });
        return up;
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

    /** The distribution carries the ui module, so the instance serves the page and its modules. */
    private void assertServesTheWebUi(Up up) throws Exception {
        HttpResponse<String> page = send(HttpRequest.newBuilder(up.uri("/")).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).as("GET / answered %s", page.body()).isEqualTo(200);
        assertThat(page.body()).contains("/ui/app.js");
        HttpResponse<String> module = send(HttpRequest.newBuilder(up.uri("/ui/app.js")).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(module.statusCode()).isEqualTo(200);
        assertThat(module.headers().firstValue("Content-Type").orElse("")).startsWith("text/javascript");
    }

    /** The resource as JSON, or null while it cannot be read (404, 503, connection refused). */
    private JsonNode get(Up up, String path) throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(up.uri(path)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
        return r != null && r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) throws InterruptedException {
        try {
            return http.send(request, body);
        } catch (IOException e) {
            return null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** One {@code bin/statesync up} process. */
    private static final class Up {
        final Process process;
        final Path log;
        final int httpPort;
        /** Every descendant seen while it ran, for the clean-up after a failed test. */
        final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

        Up(Process process, Path log, int httpPort) {
            this.process = process;
            this.log = log;
            this.httpPort = httpPort;
        }

        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + httpPort + path);
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
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }
}
