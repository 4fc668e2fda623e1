package io.statesync.serde;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs {@code schemas/src/main/python/statesync_avro.py}, the Python helper schemas/README.md documents, with
 * Debian's python3-confluent-kafka and python3-avro.
 */
public final class PythonClient {

    /** Debian's interpreter: a pyenv python3 earlier on PATH would not have the Debian modules. */
    public static final String PYTHON = "/usr/bin/python3";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path script = repoRoot().resolve("schemas/src/main/python/statesync_avro.py");
    private final String bootstrap;
    private final String registry;

    public PythonClient(String bootstrap, String registry) {
        this.bootstrap = bootstrap;
        this.registry = registry;
    }

    /** Skips the calling test, saying what to install, where the interpreter lacks a module. */
    public static void assumeAvailable() throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(Path.of(PYTHON)), PYTHON + " is missing; install python3");
        for (String module : List.of("confluent_kafka.avro", "avro.io", "requests")) {
            Process p = new ProcessBuilder(PYTHON, "-c", "import " + module).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assumeTrue(p.waitFor() == 0, PYTHON + " cannot import " + module + " (apt-get install -y "
                + "python3-confluent-kafka python3-avro python3-requests): " + out.strip());
        }
    }

    /** Consumes a topic from the beginning and returns the JSON lines it printed. */
    public List<JsonNode> consume(String topic, int max) throws IOException, InterruptedException {
        String out = run(List.of("consume", "--topic", topic, "--max", Integer.toString(max), "--timeout", "30"), "");
        List<JsonNode> records = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                records.add(JSON.readTree(line));
            }
        }
        return records;
    }

    /** Produces JSON lines {@code {"key": ..., "value": ...}} with the subject's latest schema. */
    public void produce(String topic, List<JsonNode> lines) throws IOException, InterruptedException {
        StringBuilder in = new StringBuilder();
        for (JsonNode line : lines) {
            in.append(JSON.writeValueAsString(line)).append('\n');
        }
        run(List.of("produce", "--topic", topic), in.toString());
    }

    private String run(List<String> args, String stdin) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(PYTHON, script.toString()));
        command.addAll(args);
        command.addAll(List.of("--bootstrap", bootstrap, "--registry", registry));
        Process p = new ProcessBuilder(command).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p, true));
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p, false));
        try (var w = p.getOutputStream()) {
            w.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        boolean done = p.waitFor(90, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        assertThat(done && p.exitValue() == 0).as("%s failed: %s", args.get(0), err.join()).isTrue();
        return out.join();
    }

    private static String read(Process p, boolean stderr) {
        try {
            return new String((stderr ? p.getErrorStream() : p.getInputStream()).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static Path repoRoot() {
        String root = System.getProperty("statesync.repo.root");
        Path start = Path.of(root != null ? root : System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("schemas/src/main/python"))) {
                return dir;
            }
        }
        throw new IllegalStateException("No schemas/src/main/python above " + start);
    }
}
