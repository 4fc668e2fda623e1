package io.statesync.kubernetes;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** One kustomization under ops/kubernetes rendered by {@code kubectl kustomize}, as one JSON tree per object. */
record RenderedOverlay(String name, Path dir, List<JsonNode> objects) {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** The test methods' source: {@code @MethodSource(RenderedOverlay.ALL)}. */
    static final String ALL = "io.statesync.kubernetes.RenderedOverlay#overlays";
    private static final long RENDER_TIMEOUT_S = 120;
    /**
     * The kustomization files use fields of kustomize v4 and later ({@code labels}, per-generator {@code options},
     * {@code patches} by label selector); older kubectl releases embed kustomize v2 or v3.
     */
    private static final int MIN_KUSTOMIZE = 4;
    private static final Pattern KUSTOMIZE_VERSION = Pattern.compile("Kustomize Version: v(\\d+)");
    private static List<RenderedOverlay> rendered;

    @Override
    public String toString() {
        return name;
    }

    /** The repository root: the first directory upward from the working directory that holds ops/kubernetes. */
    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("ops/kubernetes/base")) && Files.isRegularFile(dir.resolve("Dockerfile"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no ops/kubernetes/base upward from " + Path.of("").toAbsolutePath());
    }

    /** Every overlay under ops/kubernetes/overlays, rendered; skipped with a message where kubectl is missing. */
    static synchronized List<RenderedOverlay> overlays() throws IOException {
        if (rendered != null) {
            return rendered;
        }
        String kustomize = kustomizeVersion();
        assumeTrue(kustomize != null && Integer.parseInt(kustomize) >= MIN_KUSTOMIZE, "kubectl with kustomize v"
            + MIN_KUSTOMIZE + " or newer (kubectl 1.24+) is not on the PATH; skipping the checks of the rendered overlays");
        try (Stream<Path> dirs = Files.list(repositoryRoot().resolve("ops/kubernetes/overlays"))) {
            List<RenderedOverlay> out = new ArrayList<>();
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                out.add(render(dir));
            }
            rendered = List.copyOf(out);
            return rendered;
        }
    }

    /** The major version of kubectl's built-in kustomize, or null without a kubectl that names it. */
    private static String kustomizeVersion() {
        String path = System.getenv().getOrDefault("PATH", "");
        if (Stream.of(path.split(File.pathSeparator)).noneMatch(d -> Files.isExecutable(Path.of(d, "kubectl")))) {
            return null;
        }
        try {
            Process p = new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(RENDER_TIMEOUT_S, TimeUnit.SECONDS);
            Matcher m = KUSTOMIZE_VERSION.matcher(out);
            return m.find() ? m.group(1) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static RenderedOverlay render(Path dir) throws IOException {
        Process p = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(false).start();
        String yaml;
        String errors;
        try {
            yaml = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            errors = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(RENDER_TIMEOUT_S, TimeUnit.SECONDS)).as("kubectl kustomize %s finished", dir).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(p.exitValue()).as("kubectl kustomize %s said: %s", dir, errors).isZero();
        List<JsonNode> objects = YAML.readValues(YAML.createParser(yaml), JsonNode.class).readAll();
        return new RenderedOverlay(dir.getFileName().toString(), dir, List.copyOf(objects));
    }

    List<JsonNode> all(String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
    }

    JsonNode only(String kind) {
        List<JsonNode> found = all(kind);
        assertThat(found).as("%s objects of kind %s", name, kind).hasSize(1);
        return found.get(0);
    }

    JsonNode named(String kind, String objectName) {
        return all(kind).stream().filter(o -> objectName.equals(o.path("metadata").path("name").asText())).findFirst()
            .orElseThrow(() -> new AssertionError(name + " renders no " + kind + " named " + objectName));
    }
}
