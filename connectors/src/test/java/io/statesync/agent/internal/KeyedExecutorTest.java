package io.statesync.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KeyedExecutorTest {

    private final KeyedExecutor executor = new KeyedExecutor(4, "test");

    @AfterEach
    void close() {
        executor.close();
    }

    @Test
    void shouldRunTasksOfOneKeyInSubmissionOrderEvenAfterAFailure() throws Exception {
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int n = i;
            all.add(executor.submit("k", () -> {
                order.add(n);
                if (n == 50) {
                    throw new IllegalStateException("task 50 fails");
                }
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).handle((v, e) -> null).get(10, TimeUnit.SECONDS);

        assertThat(order).hasSize(100).isSorted();
    }

    @Test
    void shouldRunDifferentKeysConcurrently() throws Exception {
        CountDownLatch bothRunning = new CountDownLatch(2);
        CompletableFuture<Void> a = executor.submit("a", () -> awaitOther(bothRunning));
        CompletableFuture<Void> b = executor.submit("b", () -> awaitOther(bothRunning));

        CompletableFuture.allOf(a, b).get(10, TimeUnit.SECONDS);
        assertThat(bothRunning.getCount()).isZero();
    }

    @Test
    void shouldForgetIdleKeys() throws Exception {
        executor.submit("a", () -> { }).get(10, TimeUnit.SECONDS);

        // The chain is dropped by a completion callback, which may run just after get() returns.
        await().atMost(Duration.ofSeconds(5)).until(() -> executor.activeKeys() == 0);
    }

    private static void awaitOther(CountDownLatch latch) {
        latch.countDown();
        try {
            if (!latch.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other key never ran alongside");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
