package io.statesync.topology.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AdmissionRateTest {

    private final AdmissionRate rate = new AdmissionRate();

    @Test
    void shouldCountTheRecordsOfTheLastSecond() {
        for (int i = 0; i < 30; i++) {
            rate.record(10_000 + i);
        }
        for (int i = 0; i < 20; i++) {
            rate.record(10_600 + i);
        }
        assertThat(rate.perSecond(10_650)).isEqualTo(50);
        assertThat(rate.perSecond(10_999)).as("all 50 within the last second").isEqualTo(50);
        assertThat(rate.perSecond(11_000)).as("the first 30 slid out of the window").isEqualTo(20);
        assertThat(rate.perSecond(11_600)).as("the window slid past all of them").isZero();
    }

    @Test
    void shouldSeeABurstFromItsStartAcrossTheTurnOfASecond() {
        for (int i = 0; i < 40; i++) {
            rate.record(10_900 + i);
        }
        assertThat(rate.perSecond(10_950)).isEqualTo(40);
        for (int i = 0; i < 40; i++) {
            rate.record(11_000 + i);
        }
        assertThat(rate.perSecond(11_050)).as("a new second does not start the count again").isEqualTo(80);
    }

    @Test
    void shouldForgetASlotThatAnOlderStepLeftBehind() {
        for (int i = 0; i < 30; i++) {
            rate.record(10_000 + i);
        }
        rate.record(12_000);
        assertThat(rate.perSecond(12_050)).as("the same slot, two windows later").isEqualTo(1);
    }

    @Test
    void shouldCountRecordsFromSeveralThreads() throws Exception {
        int threads = 4;
        int each = 10_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                for (int i = 0; i < each; i++) {
                    rate.record(20_000);
                }
                done.countDown();
            });
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        pool.shutdown();
        assertThat(rate.perSecond(20_999)).isEqualTo((long) threads * each);
    }
}
