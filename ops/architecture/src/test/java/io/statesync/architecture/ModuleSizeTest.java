package io.statesync.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** No module grows into several products: each holds at most 30% of the hand-written main Java lines. */
class ModuleSizeTest {

    private static final double MAX_SHARE = 0.30;

    @Test
    void shouldKeepEveryModuleUnderThirtyPercentOfMainJavaLines() throws IOException {
        Map<String, Long> lines = mainJavaLinesByModule(repositoryRoot());
        long total = lines.values().stream().mapToLong(Long::longValue).sum();

        assertThat(lines).containsKeys("topology/engine", "topology/server", "topology/serde", "connectors", "ops/bench");
        lines.forEach((module, n) -> assertThat((double) n / total)
            .as("%s holds %d of %d main Java lines", module, n, total).isLessThanOrEqualTo(MAX_SHARE));
    }

    /** Lines of {@code src/main/java} per module folder; generated sources live under {@code target/} and are not counted. */
    static Map<String, Long> mainJavaLinesByModule(Path root) throws IOException {
        Map<String, Long> lines = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".java") && !f.toString().contains("/target/"))
                .forEach(f -> {
                    String rel = root.relativize(f).toString().replace('\\', '/');
                    int at = rel.indexOf("/src/main/java/");
                    if (at > 0) {
                        lines.merge(rel.substring(0, at), countLines(f), Long::sum);
                    }
                });
        }
        return lines;
    }

    private static long countLines(Path f) {
        try (Stream<String> l = Files.lines(f)) {
            return l.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("topology/engine")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("repository root not found above " + Path.of("").toAbsolutePath());
    }
}
