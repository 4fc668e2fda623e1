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
    void shouldCountTheCurrentSecondUntilTheLastWholeOneHadMore() {
        for (int i = 0; i < 30; i++) {
            rate.record(10_000 + i);
        }
        assertThat(rate.perSecond(10_500)).isEqualTo(30);
        for (int i = 0; i < 5; i++) {
            rate.record(11_000 + i);
        }
        assertThat(rate.perSecond(11_100)).as("the last whole second had 30").isEqualTo(30);
        for (int i = 0; i < 40; i++) {
            rate.record(11_200 + i);
        }
        assertThat(rate.perSecond(11_300)).as("this second already has 45").isEqualTo(45);
    }

    @Test
    void shouldForgetASecondThatIsNotTheLastOne() {
        for (int i = 0; i < 30; i++) {
            rate.record(10_000 + i);
        }
        assertThat(rate.perSecond(12_500)).isZero();
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
