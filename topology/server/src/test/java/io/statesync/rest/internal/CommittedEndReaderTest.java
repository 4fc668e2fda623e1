package io.statesync.rest.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.rest.ApiError;
import io.statesync.view.WatchPosition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class CommittedEndReaderTest {

    /** Answers its own sequence number as the end offset; the first query waits until released. */
    private static final class CountingQuery implements CommittedEndReader.EndOffsetsQuery {
        final AtomicInteger started = new AtomicInteger();
        final CountDownLatch firstStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean closed;

        @Override
        public long[] query() {
            int n = started.incrementAndGet();
            if (n == 1) {
                firstStarted.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return new long[] {n};
        }

        @Override
        public void wakeup() {
            release.countDown();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final CountingQuery query = new CountingQuery();
    private final CommittedEndReader reader = new CommittedEndReader(query, "t");
    private final ExecutorService callers = Executors.newFixedThreadPool(10);

    @AfterEach
    void stop() {
        query.release.countDown();
        reader.close();
        callers.shutdownNow();
    }

    @Test
    void shouldServeEveryCallerThatArrivedWhileAQueryWasOutWithOneLaterQuery() throws Exception {
        Future<WatchPosition> first = callers.submit(reader::get);
        assertThat(query.firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<WatchPosition>> waiting = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            waiting.add(callers.submit(reader::get));
        }
        // Give the nine callers time to join the next round while the first query is still out.
        Thread.sleep(200);
        assertThat(query.started.get()).as("nothing is sent while a query is out").isEqualTo(1);
        query.release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS).offsets()).containsExactly(1);
        for (Future<WatchPosition> f : waiting) {
            assertThat(f.get(10, TimeUnit.SECONDS).offsets()).as("a query sent after the caller asked").containsExactly(2);
        }
        assertThat(query.started.get()).isEqualTo(2);
    }

    @Test
    void shouldSendANewQueryForACallerThatArrivesAfterTheLastOneReturned() {
        query.release.countDown();
        assertThat(reader.get().offsets()).containsExactly(1);
        assertThat(reader.get().offsets()).containsExactly(2);
    }

    @Test
    void shouldAnswer503ToCallersOnceClosedAndCloseTheQuery() {
        reader.close();
        assertThatThrownBy(reader::get).isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(503));
        await().atMost(Duration.ofSeconds(10)).until(() -> query.closed);
    }
}
