package io.statesync.launcher;

import java.io.IOException;
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
    }

    @Test
    void shouldMapTheArchiveOfARunThatBecameReadyFromTheNextStartOn() throws Exception {
        Path pending = onlyPending(launch(Map.of()));
        markReady(pending);

        launch(Map.of());
        assertThat(archives()).hasSize(1);
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
