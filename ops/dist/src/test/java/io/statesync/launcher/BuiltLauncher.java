package io.statesync.launcher;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The distribution's {@code bin/statesync} as the package phase built it. {@code run --help} stands in for a run: it
 * starts the JVM the same way, and exits at once without becoming ready.
 */
final class BuiltLauncher {

    static final Path LAUNCHER = Path.of("target", "statesync", "bin", "statesync").toAbsolutePath();

    private BuiltLauncher() {
    }

    /**
     * Runs {@code bin/statesync run --help} in {@code workDir} with this JDK and {@code env} (an empty value removes the
     * variable); its output, after asserting that it exited with 0.
     */
    static String runHelp(Path workDir, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString(), "run", "--help").directory(workDir.toFile())
            .redirectErrorStream(true);
        Map<String, String> vars = new HashMap<>(Map.of("JAVA_HOME", System.getProperty("java.home"), "JAVA_OPTS", "",
            "STATESYNC_JIT", ""));
        vars.putAll(env);
        vars.forEach((k, v) -> {
            if (v.isEmpty()) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
