package io.statesync.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The class-data archive of {@code bin/statesync run}, through the built distribution (package phase) and real JVMs.
 */
class LauncherClassArchiveIT {

    private static final String REJECTED_LOG = "rejected.log";

    @TempDir
    Path cds;
    @TempDir
    Path workDir;

    @Test
    void shouldDropTheArchiveOfARunThatNeverBecameReady() throws Exception {
        Path first = onlyPending(launch(Map.of()));

        launch(Map.of());

        assertThat(first).doesNotExist();
        assertThat(archives()).isEmpty();
        assertThat(cds.resolve(REJECTED_LOG)).as("only a ready run's archive is worth a report").doesNotExist();
    }

    @Test
    void shouldMapTheArchiveOfARunThatBecameReadyFromTheNextStartOn() throws Exception {
        String writer = launch(Map.of());
        Path pending = onlyPending(writer);
        markReady(pending);

        String next = launch(Map.of());
        if (archives().isEmpty()) {
            // A JVM refused the archive (rejected.log says why), so the launcher dropped it; the run that just ended
            // wrote the next one, which must then be promoted. A second refusal fails the test.
            System.err.println("The first archive was not promoted: " + whatTheLaunchesLeft(writer, next));
            markReady(onlyPending(next));
            next = launch(Map.of());
        }
        String last = next;
        assertThat(archives()).as(() -> whatTheLaunchesLeft(writer, last)).hasSize(1);
        assertThat(files(".tmp-")).isEmpty();

        String classLoading = launch(Map.of("JAVA_OPTS", "-Xlog:class+load=info"));
        assertThat(classLoading).contains("source: shared objects file (top)").doesNotContain("warning");
    }

    @Test
    void shouldDropAPartialArchiveWithoutCrashing() throws Exception {
        Path pending = onlyPending(launch(Map.of()));
        try (FileChannel ch = FileChannel.open(pending, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() / 2);
        }
        markReady(pending);

        String out = launch(Map.of());

        assertThat(out).contains("Usage: statesync run").doesNotContain("Aborted");
        assertThat(pending).doesNotExist();
        assertThat(archives()).isEmpty();
        assertThat(cds.resolve(REJECTED_LOG)).content().contains("could not map " + pending);
        try (Stream<Path> crashLogs = Files.list(workDir)) {
            assertThat(crashLogs).isEmpty();
        }
    }

    @Test
    void shouldNeitherWriteNorMapAnArchiveWhenTurnedOff() throws Exception {
        String out = launch(Map.of("STATESYNC_CDS", "off", "JAVA_OPTS", "-Xlog:class+load=info"));

        assertThat(out).doesNotContain("shared objects file (top)");
        assertThat(files("")).isEmpty();
    }

    /** Everything in the archive directory, with the launcher's report of a dropped archive, for a failure message. */
    private String whatTheLaunchesLeft(String writerOutput, String nextOutput) {
        try {
            Path rejected = cds.resolve(REJECTED_LOG);
            return "files: " + files("") + "\nrejected.log: "
                + (Files.exists(rejected) ? Files.readString(rejected) : "(none)")
                + "\nwriter's output:\n" + writerOutput + "\nnext start's output:\n" + nextOutput;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code bin/statesync run --help} with {@code env} and this test's archive directory. */
    private String launch(Map<String, String> env) throws Exception {
        Map<String, String> vars = new HashMap<>(env);
        vars.put("STATESYNC_CDS_DIR", cds.toString());
        return BuiltLauncher.runHelp(workDir, vars);
    }

    /** The one archive a run left under its temporary name. */
    private Path onlyPending(String ignoredOutput) throws IOException {
        List<Path> pending = files(".tmp-");
        assertThat(pending).hasSize(1);
        return pending.get(0);
    }

    /** What the instance writes once it is ready (ClassArchiveMarker). */
    private static void markReady(Path pending) throws IOException {
        Files.writeString(Path.of(pending + ".ready"), "ready\n");
    }

    private List<Path> archives() throws IOException {
        return files("").stream().filter(f -> f.getFileName().toString().endsWith(".jsa")).toList();
    }

    private List<Path> files(String containing) throws IOException {
        try (Stream<Path> all = Files.list(cds)) {
            return all.filter(f -> f.getFileName().toString().contains(containing)).sorted().toList();
        }
    }
}
