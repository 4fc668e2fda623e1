package io.statesync.embedded.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.statesync.embedded.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParentWatchdogTest {
    @TempDir
    Path dir;

    /** Stands in for the broker: a main class that would run for a minute. */
    public static final class SleepForAMinute {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("sleeping " + String.join(" ", args));
            Thread.sleep(60_000);
        }
    }

    @Test
    void shouldRunMainClassAndExitWhenParentDies() throws Exception {
        Process fakeParent = new ProcessBuilder("sleep", "60").start();
        List<String> command = ChildJvm.command(List.of("-Xmx32m"), ChildJvm.currentClassPath(), fakeParent.pid(),
                SleepForAMinute.class.getName(), List.of("a", "b"));
        ChildProcess child = ChildProcess.start("watched", command, Map.of(), dir.resolve("watched.log"));
        try {
            Readiness.await("watched child", Duration.ofSeconds(30), child::isAlive,
                    () -> ChildProcess.tail(child.logFile(), 5).contains("sleeping a b"));

            fakeParent.destroyForcibly().waitFor();

            Readiness.await("child exit", Duration.ofSeconds(10), () -> true, () -> !child.isAlive());
            assertThat(ChildProcess.tail(child.logFile(), 5)).contains("exited; shutting down");
        } finally {
            child.stop(Duration.ofSeconds(1));
            fakeParent.destroyForcibly();
        }
    }
}
