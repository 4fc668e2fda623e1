package io.statesync.topology.internal;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AdmissionCommitsTest {

    @Test
    void shouldShareOneGapAmongTheTasksOfAStreamThread() {
        AdmissionCommits commits = new AdmissionCommits(20, 0);
        CommitRequests firstTask = commits.ofThisThread();
        CommitRequests secondTask = commits.ofThisThread();

        assertThat(firstTask.awaited(1_000)).isTrue();
        assertThat(secondTask.awaited(1_002)).as("the thread's transaction was asked to commit 2 ms ago").isFalse();
        assertThat(secondTask.punctuated(1_020)).isTrue();
    }

    @Test
    void shouldKeepEachStreamThreadsGapApart() throws Exception {
        AdmissionCommits commits = new AdmissionCommits(20, 0);
        assertThat(commits.ofThisThread().awaited(1_000)).isTrue();

        boolean otherThread = CompletableFuture.supplyAsync(() -> commits.ofThisThread().awaited(1_002)).get();

        assertThat(otherThread).as("another thread's transaction has its own gap").isTrue();
    }

    @Test
    void shouldCountEveryThreadsRecordsInTheInstancesRate() throws Exception {
        AdmissionCommits commits = new AdmissionCommits(20, 0);
        commits.ofThisThread().admitted(3_000);
        CompletableFuture.runAsync(() -> commits.ofThisThread().admitted(3_001)).get();

        assertThat(commits.rate().perSecond(3_002)).isEqualTo(2);
    }

    @Test
    void shouldPunctuateEveryHalfGap() {
        assertThat(new AdmissionCommits(20, 0).punctuationMs()).isEqualTo(10);
        assertThat(new AdmissionCommits(1, 0).punctuationMs()).isEqualTo(1);
    }
}
