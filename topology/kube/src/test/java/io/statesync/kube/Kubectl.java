package io.statesync.kube;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/** The real kubectl, run with a kubeconfig of its own and its own discovery cache. */
final class Kubectl {

    /** What one run printed. */
    record Result(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    private final Path kubeconfig;
    private final Path cache;

    Kubectl(Path kubeconfig, Path cache) {
        this.kubeconfig = kubeconfig;
        this.cache = cache;
    }

    /** Skips the calling test class when kubectl is not installed. */
    static Path require() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir, "kubectl");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        Assumptions.abort("kubectl is not on the PATH (Debian's kubernetes-client package provides it)");
        return null;
    }

    /** kubectl for {@code app}, through a kubeconfig from {@code statesync kubeconfig} in a directory of its own. */
    static Kubectl of(KubeTestApp app) throws IOException {
        Path dir = KubeTestApp.tempDir();
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, io.statesync.cli.KubeconfigCommand.kubeconfig(app.base(), null));
        return new Kubectl(kubeconfig, dir.resolve("cache"));
    }

    Path kubeconfig() {
        return kubeconfig;
    }

    Result run(String stdin, String... args) throws IOException, InterruptedException {
        Process p = start(args);
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
            new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** Runs kubectl and asserts that it succeeded. */
    Result ok(String stdin, String... args) throws IOException, InterruptedException {
        Result r = run(stdin, args);
        org.assertj.core.api.Assertions.assertThat(r.exit()).as("kubectl %s: %s", String.join(" ", args), r.all()).isZero();
        return r;
    }

    Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir", cache.toString()));
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().remove("KUBECONFIG");
        return b.start();
    }
}
