package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Kubernetes' Python client (Debian's python3-kubernetes) against a real instance, driven from a script. */
@ExtendWith(EmbeddedClusterExtension.class)
class PythonClientIT {

    private static final String PYTHON = "/usr/bin/python3";

    private static void requireClient() throws Exception {
        requireModule("kubernetes");
    }

    /** Skips the test where Debian's python3-{@code module} is not installed. */
    static void requireModule(String module) throws Exception {
        Process probe = new ProcessBuilder(PYTHON, "-c", "import " + module).start();
        Assumptions.assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0,
            PYTHON + " lacks the " + module + " module (Debian's python3-" + module + ")");
    }

    /** Runs a script of the test resources' {@code python} directory and reads the JSON it prints; fails on a non-zero exit. */
    static JsonNode run(String script, String... args) throws Exception {
        Path path = Path.of(PythonClientIT.class.getResource("/python/" + script).toURI());
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(PYTHON, path.toString()));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).start();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(done && p.exitValue() == 0).as(out + err).isTrue();
        return KubeTestApp.JSON.readTree(out);
    }

    @Test
    void shouldServerSideApplyWithCustomObjectsApiAndTheDynamicClient() throws Exception {
        requireClient();
        try (KubeTestApp app = KubeTestApp.start(KubeTestApp.config("kube-python-ssa"))) {
            app.putKind("PySsa", Map.of("plural", "pyssas", "correctionDeadlineMs", 3_600_000L));
            JsonNode seen = run("kube_server_side_apply.py", app.base(), KubeTestApp.WRITER, "py", "PySsa", "pyssas");

            assertThat(seen.path("created").asInt()).isEqualTo(1);
            assertThat(seen.path("managers").toString()).isEqualTo("[\"py-deployer/Apply\"]");
            assertThat(seen.path("conflict").toString()).isEqualTo("[409,[\".spec.replicas\"]]");
            assertThat(seen.path("forced").toString()).isEqualTo("[4,\"nginx:1\"]");
        }
    }

    @Test
    void shouldDoCrudWithTheDynamicClientAndResumeAWatchFromAnObjectsResourceVersion() throws Exception {
        requireClient();
        Path script = Path.of(PythonClientIT.class.getResource("/python/kube_dynamic_client.py").toURI());
        try (KubeTestApp app = KubeTestApp.start(KubeTestApp.config("kube-python"))) {
            app.putKind("PyApp", Map.of("correctionDeadlineMs", 3_600_000L));
            Process p = new ProcessBuilder(PYTHON, script.toString(), app.base(), KubeTestApp.WRITER, "py", "PyApp").start();
            boolean done = p.waitFor(120, TimeUnit.SECONDS);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(done && p.exitValue() == 0).as(out + err).isTrue();
            JsonNode seen = KubeTestApp.JSON.readTree(out);

            assertThat(seen.path("created").asInt()).isEqualTo(1);
            assertThat(seen.path("read").asText()).isEqualTo("nginx:1");
            assertThat(seen.path("patched").asInt()).isEqualTo(2);
            assertThat(seen.path("listed").toString()).isEqualTo("[\"one\"]");
            assertThat(seen.path("watched").toString()).isEqualTo("[[\"MODIFIED\",3],[\"MODIFIED\",4]]");
            assertThat(seen.path("missing").asInt()).isEqualTo(404);
        }
    }
}
