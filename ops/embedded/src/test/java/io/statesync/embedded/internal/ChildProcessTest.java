package io.statesync.embedded.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessTest {
    @TempDir
    Path dir;

    @Test
    void shouldStopChildAndForgetIt() {
        ChildProcess child = ChildProcess.start("sleeper", List.of("sleep", "60"), Map.of(), dir.resolve("sleep.log"));
        assertThat(ChildProcessReaper.children()).anyMatch(h -> h.pid() == child.pid());

        child.stop(Duration.ofSeconds(5));

        assertThat(ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(ChildProcessReaper.children()).noneMatch(h -> h.pid() == child.pid());
    }

    @Test
    void shouldRunChildInItsOwnProcessGroupSoThatCtrlCReachesOnlyTheParent() throws Exception {
        ChildProcess child = ChildProcess.start("sleeper", List.of("sleep", "60"), Map.of(), dir.resolve("sleep.log"));
        try {
            long ownGroup = processGroup(ProcessHandle.current().pid());
            assertThat(processGroup(child.pid())).isEqualTo(child.pid()).isNotEqualTo(ownGroup);
        } finally {
            child.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void shouldKillChildThatIgnoresGracefulStop() {
        ChildProcess child = ChildProcess.start("stubborn", List.of("sh", "-c", "trap '' TERM; echo ready; sleep 60"),
                Map.of(), dir.resolve("stubborn.log"));
        Readiness.await("stubborn", Duration.ofSeconds(10), child::isAlive, () -> logContains(child, "ready"));

        child.stop(Duration.ofMillis(300));

        assertThat(child.isAlive()).isFalse();
    }

    @Test
    void shouldAppendOutputToLogFileAndPassEnvironment() {
        Path log = dir.resolve("logs/echo.log");

        ChildProcess.run("echo", List.of("sh", "-c", "echo hello $GREETING"), log, Duration.ofSeconds(10));
        ChildProcess.start("echo", List.of("sh", "-c", "echo again $GREETING"), Map.of("GREETING", "world"), log);

        Readiness.await("echo", Duration.ofSeconds(10), () -> true, () -> ChildProcess.tail(log, 5).contains("again world"));
        assertThat(ChildProcess.tail(log, 5)).contains("hello").contains("again world");
    }

    @Test
    void shouldReportExitCodeAndLogTailWhenCommandFails() {
        assertThatThrownBy(() -> ChildProcess.run("failing", List.of("sh", "-c", "echo boom; exit 3"),
                dir.resolve("fail.log"), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("failing").hasMessageContaining("exited with code 3").hasMessageContaining("boom");
    }

    @Test
    void shouldStopCommandThatOutlivesItsTimeout() {
        assertThatThrownBy(() -> ChildProcess.run("slow", List.of("sleep", "60"), dir.resolve("slow.log"),
                Duration.ofMillis(300)))
                .hasMessageContaining("did not finish within");
        assertThat(ChildProcessReaper.children()).noneMatch(h -> h.info().command().orElse("").endsWith("sleep"));
    }

    /** Field 5 of /proc/<pid>/stat, after the parenthesised command name. */
    private static long processGroup(long pid) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
    }

    private static boolean logContains(ChildProcess child, String text) {
        try {
            return Files.readString(child.logFile()).contains(text);
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
