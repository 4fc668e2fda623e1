package io.statesync.topology.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CommitRequestsTest {

    private final AdmissionRate rate = new AdmissionRate();

    @Test
    void shouldAskAtOnceAfterAQuietSpellThenAtMostOncePerGap() {
        CommitRequests commits = new CommitRequests(20, 0, rate);
        assertThat(commits.awaited(1_000)).isTrue();
        assertThat(commits.awaited(1_005)).as("within the gap").isFalse();
        assertThat(commits.punctuated(1_010)).as("the punctuation asks for the write held back").isTrue();
        assertThat(commits.punctuated(1_030)).as("nothing awaited since").isFalse();
        assertThat(commits.awaited(1_031)).as("a full gap after the last request").isTrue();
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
        assertThat(commits.awaited(5_200)).as("101 records this second").isFalse();
        assertThat(commits.punctuated(5_220)).isFalse();
        assertThat(commits.punctuated(6_500)).as("the last whole second had 101 records").isFalse();
        commits.admitted(7_010);
        assertThat(commits.punctuated(7_020)).as("the last whole second was quiet; the held-back write is asked for").isTrue();
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
