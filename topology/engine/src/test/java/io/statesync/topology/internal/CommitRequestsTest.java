package io.statesync.topology.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CommitRequestsTest {

    private final AdmissionRate rate = new AdmissionRate();

    @Test
    void shouldAskAtOnceAfterAQuietSpellThenAtMostOncePerGap() {
        CommitRequests commits = new CommitRequests(20, 0, rate);
        assertThat(commits.awaited(1_000)).isTrue();
        assertThat(commits.awaited(1_003)).as("within the gap").isFalse();
        assertThat(commits.punctuated(1_010)).as("half a gap after the request: still within it").isFalse();
        assertThat(commits.punctuated(1_020)).as("the gap has passed: the write held back is asked for").isTrue();
        assertThat(commits.punctuated(1_040)).as("nothing awaited since").isFalse();
        assertThat(commits.awaited(1_041)).as("a full gap after the last request").isTrue();
    }

    @Test
    void shouldAskAtOnceForALoneWritersNextWriteWithinTheGap() {
        CommitRequests commits = new CommitRequests(20, 0, rate);
        assertThat(commits.awaited(1_000)).isTrue();
        assertThat(commits.awaited(1_008)).as("the last request covered one write and none has waited since").isTrue();
        assertThat(commits.awaited(1_016)).isTrue();
    }

    @Test
    void shouldHoldConcurrentWritesToTheGap() {
        CommitRequests commits = new CommitRequests(20, 0, rate);
        assertThat(commits.awaited(1_000)).isTrue();
        assertThat(commits.awaited(1_006)).as("a lone write a quarter gap on: asked at once").isTrue();
        assertThat(commits.awaited(1_007)).isFalse();
        assertThat(commits.awaited(1_012)).as("one write waits since the last request").isFalse();
        assertThat(commits.punctuated(1_026)).isTrue();
        assertThat(commits.awaited(1_036)).as("the last request covered two writes").isFalse();
        assertThat(commits.awaited(1_046)).as("a full gap after it").isTrue();
    }

    @Test
    void shouldAskForNothingWhenTheGapIsZero() {
        CommitRequests commits = new CommitRequests(0, 0, rate);
        assertThat(commits.enabled()).isFalse();
        assertThat(commits.awaited(1_000)).isFalse();
        assertThat(commits.punctuated(1_000)).isFalse();
    }

    @Test
    void shouldPauseWhileTheInstanceAdmitsMoreThanTheMaximumRateAndResumeWhenItCalmsDown() {
        CommitRequests commits = new CommitRequests(20, 100, rate);
        for (int i = 0; i < 101; i++) {
            commits.admitted(5_000 + i);
        }
        assertThat(commits.awaited(5_200)).as("101 records within the last second").isFalse();
        assertThat(commits.punctuated(5_220)).isFalse();
        assertThat(commits.punctuated(5_950)).as("the window still holds the 101 records").isFalse();
        commits.admitted(6_150);
        assertThat(commits.punctuated(6_160)).as("the window slid past them; the held-back write is asked for").isTrue();
    }

    @Test
    void shouldKeepAskingAtTheMaximumRateItself() {
        CommitRequests commits = new CommitRequests(20, 100, rate);
        for (int i = 0; i < 100; i++) {
            commits.admitted(5_000 + i);
        }
        assertThat(commits.awaited(5_200)).isTrue();
    }

    @Test
    void shouldCountEveryAdmittedRecordInTheInstancesRate() {
        CommitRequests one = new CommitRequests(20, 0, rate);
        CommitRequests other = new CommitRequests(20, 0, rate);
        one.admitted(3_000);
        other.admitted(3_001);
        assertThat(rate.perSecond(3_002)).isEqualTo(2);
    }
}
