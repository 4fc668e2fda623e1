package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class LoopSupervisorTest {

    private static LoopSupervisor supervisor(Runnable body, Duration initial, Duration max, Duration liveness) {
        return new LoopSupervisor("test-loop", body, initial, max, liveness, System::nanoTime);
    }

    @Test
    void shouldStartALoopAgainAfterEachFailureAndCountTheRestarts() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        LoopSupervisor s = supervisor(() -> {
            if (calls.incrementAndGet() <= 3) {
                throw new IllegalStateException("failure " + calls.get());
            }
            running.countDown();
            block(release);
        }, Duration.ofMillis(1), Duration.ofMillis(20), Duration.ofMinutes(5));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        s.bindTo(registry);
        s.start();

        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(calls.get()).isEqualTo(4);
        assertThat(s.restarts()).isEqualTo(3);
        assertThat(registry.get("statesync.loop.restarts").tag("loop", "test-loop").functionCounter().count()).isEqualTo(3.0);
        assertThat(s.state().phase()).isEqualTo(LoopSupervisor.Phase.RUNNING);
        assertThat(s.readinessProblem()).isNull();
        assertThat(s.livenessProblem()).isNull();
        s.stop();
        release.countDown();
        s.thread().join(5_000);
        assertThat(s.state().phase()).isEqualTo(LoopSupervisor.Phase.STOPPED);
        assertThat(s.livenessProblem()).as("a loop its owner stopped needs no restart").isNull();
    }

    @Test
    void shouldReportRestartingWithTheReasonOnReadinessWhileItBacksOff() {
        LoopSupervisor s = supervisor(() -> {
            throw new IllegalStateException("broker gone");
        }, Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMinutes(5)).start();
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> s.state().phase() == LoopSupervisor.Phase.RESTARTING);
            assertThat(s.state().reason()).contains("broker gone");
            assertThat(s.readinessProblem()).contains("test-loop", "restarting", "broker gone");
            assertThat(s.livenessProblem()).as("failing for less than the liveness bound").isNull();
            assertThat(registryPhase(s)).isEqualTo(1.0);
        } finally {
            s.stop();
        }
    }

    @Test
    void shouldFailLivenessWhenTheLoopKeepsFailingLongerThanTheBound() {
        LoopSupervisor s = supervisor(() -> {
            throw new IllegalStateException("always");
        }, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(200)).start();
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> s.livenessProblem() != null);
            assertThat(s.livenessProblem()).contains("test-loop", "kept failing", "always");
            assertThat(s.restarts()).isGreaterThan(3);
        } finally {
            s.stop();
        }
    }

    @Test
    void shouldDoubleTheBackoffUpToTheCap() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        long[] at = new long[8];
        LoopSupervisor s = supervisor(() -> {
            int n = calls.getAndIncrement();
            if (n < at.length) {
                at[n] = System.nanoTime();
            }
            throw new IllegalStateException("again");
        }, Duration.ofMillis(20), Duration.ofMillis(80), Duration.ofMinutes(5)).start();
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> calls.get() >= at.length);
        } finally {
            s.stop();
        }
        long[] gapsMs = new long[at.length - 1];
        for (int i = 1; i < at.length; i++) {
            gapsMs[i - 1] = (at[i] - at[i - 1]) / 1_000_000;
        }
        assertThat(gapsMs[0]).isBetween(18L, 60L);
        assertThat(gapsMs[1]).isBetween(38L, 100L);
        assertThat(gapsMs[6]).as("capped").isBetween(78L, 200L);
    }

    @Test
    void shouldStopForGoodOnAnErrorAndFailLiveness() {
        LoopSupervisor s = supervisor(() -> {
            throw new LinkageError("test linkage");
        }, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMinutes(5)).start();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.state().phase() == LoopSupervisor.Phase.STOPPED);
        assertThat(s.restarts()).isZero();
        assertThat(s.readinessProblem()).contains("stopped", "test linkage");
        assertThat(s.livenessProblem()).contains("stopped", "test linkage");
    }

    @Test
    void shouldCountALoopThatEndsOnItsOwnAsStoppedForGood() {
        LoopSupervisor s = supervisor(() -> { }, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMinutes(5)).start();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.state().phase() == LoopSupervisor.Phase.STOPPED);
        assertThat(s.livenessProblem()).contains("ended without being stopped");
    }

    private static double registryPhase(LoopSupervisor s) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        s.bindTo(registry);
        return registry.get("statesync.loop.state").tag("loop", "test-loop").gauge().value();
    }

    private static void block(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
