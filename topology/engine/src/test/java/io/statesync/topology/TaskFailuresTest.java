package io.statesync.topology;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TaskFailuresTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now.get());
        }
    };

    @Test
    void shouldReportATaskThatKeepsFailingWithItsReasonUntilTheWindowPasses() {
        TaskFailures failures = new TaskFailures(clock);
        failures.failed("task 0_1 at p.desired-1@7", new IllegalStateException("registry down"));
        failures.failed("task 0_1 at p.desired-1@7", new IllegalStateException("registry down"));
        assertThat(failures.problem()).isNull();
        failures.failed("stream thread t-2", new StackOverflowError());
        assertThat(failures.problem()).contains("failed 3 times").contains("stream thread t-2")
            .contains(StackOverflowError.class.getName());
        now.addAndGet(TaskFailures.WINDOW.plus(Duration.ofSeconds(1)).toMillis());
        assertThat(failures.problem()).isNull();
    }

    @Test
    void shouldAskForARestartOnlyOnceTasksHaveKeptFailingForTheConfiguredTime() {
        TaskFailures failures = new TaskFailures(clock);
        long after = Duration.ofMinutes(15).toMillis();
        for (int minute = 0; minute < 15; minute++) {
            failures.failed("task 0_1 at p.desired-1@7", new StackOverflowError());
            assertThat(failures.livenessProblem(after)).as("minute " + minute).isNull();
            now.addAndGet(Duration.ofMinutes(1).toMillis());
        }
        failures.failed("task 0_1 at p.desired-1@7", new StackOverflowError());
        assertThat(failures.livenessProblem(after)).contains("kept failing for 900 s").contains("task 0_1");
        assertThat(failures.livenessProblem(0)).as("0 turns the check off").isNull();
        now.addAndGet(TaskFailures.WINDOW.plus(Duration.ofSeconds(1)).toMillis());
        assertThat(failures.livenessProblem(after)).as("quiet for a window: live again").isNull();
        failures.failed("task 0_1 at p.desired-1@7", new StackOverflowError());
        failures.failed("task 0_1 at p.desired-1@7", new StackOverflowError());
        failures.failed("task 0_1 at p.desired-1@7", new StackOverflowError());
        assertThat(failures.problem()).isNotNull();
        assertThat(failures.livenessProblem(after)).as("a new run of failures starts its own clock").isNull();
    }
}
