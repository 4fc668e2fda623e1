package io.statesync.topology;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.TaskId;
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
        failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", new IllegalStateException("registry down"));
        failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", new IllegalStateException("registry down"));
        assertThat(failures.problem()).isNull();
        failures.threadDied("t-2", new StackOverflowError());
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
            failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", new StackOverflowError());
            assertThat(failures.livenessProblem(after)).as("minute " + minute).isNull();
            now.addAndGet(Duration.ofMinutes(1).toMillis());
        }
        failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", new StackOverflowError());
        assertThat(failures.livenessProblem(after)).contains("kept failing for 900 s").contains("task 0_1");
        assertThat(failures.livenessProblem(0)).as("0 turns the check off").isNull();
        now.addAndGet(TaskFailures.WINDOW.plus(Duration.ofSeconds(1)).toMillis());
        assertThat(failures.livenessProblem(after)).as("quiet for a window: live again").isNull();
        failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", new StackOverflowError());
        failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", new StackOverflowError());
        failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", new StackOverflowError());
        assertThat(failures.problem()).isNotNull();
        assertThat(failures.livenessProblem(after)).as("a new run of failures starts its own clock").isNull();
    }

    @Test
    void shouldCountEveryDeathThatNoHandlersRecordStandsForAndEachHandlersRecordForOneDeathAtMost() {
        TaskFailures failures = new TaskFailures(clock);
        RuntimeException refused = new RuntimeException("refused");
        failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", refused);
        failures.threadDied("t-1", new StreamsException("wrapped", refused, new TaskId(0, 1)));
        failures.threadDied("t-2", new StreamsException("a second death of the task", new TaskId(0, 1)));
        assertThat(failures.problem()).as("the handler's record stands for the first death only").isNull();
        failures.threadDied("t-3", new IllegalStateException("a death charged to no task"));
        assertThat(failures.problem()).contains("failed 3 times").contains("stream thread t-3");
    }

    @Test
    void shouldCountAHandlersFailureOnceWhenTheThreadsDeathNamesOnlyItsTask() {
        TaskFailures failures = new TaskFailures(clock);
        for (int i = 0; i < 2; i++) {
            failures.taskFailed("0_1", "task 0_1 at p.desired-1@7", new RuntimeException("refused " + i));
            failures.threadDied("t-" + i, new StreamsException("commit failed", new TaskId(0, 1)));
        }
        assertThat(failures.problem()).as("two failures, each reported twice").isNull();
        failures.taskFailed("0_2", "task 0_2 at p.desired-2@3", new RuntimeException("refused"));
        failures.threadDied("t-9", new StreamsException("commit failed", new TaskId(0, 1)));
        assertThat(failures.problem()).as("a death of another task than the handler's is its own failure")
            .contains("failed 4 times");
    }
}
