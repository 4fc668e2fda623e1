package io.statesync.view.internal;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class EventStoreTest {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final Duration WINDOW = Duration.ofHours(1);

    @Test
    void shouldHoldNoEntryForAResourceWhoseEventsAreAllOlderThanTheWindow() {
        EventStore store = new EventStore(100, 1L << 30);
        for (int i = 0; i < 1_000; i++) {
            store.add("Kind/default/old-" + i, "Normal", "Converged", "converged", NOW.minus(WINDOW).minusSeconds(10), "7", 1);
        }
        store.add("Kind/default/fresh", "Normal", "Converged", "converged", NOW.minusSeconds(5), "8", 1);
        long freshBytes = bytesOfOne("Kind/default/fresh", "Converged", "converged");

        store.pruneFront(NOW.minus(WINDOW));

        assertThat(store.resources()).isEqualTo(1);
        assertThat(store.bytes()).isEqualTo(freshBytes);
        assertThat(store.events("Kind/default/old-3", Instant.EPOCH)).isEmpty();
    }

    @Test
    void shouldDropOldEntriesAndResourcesThatArrivedOutOfTheirTimestampsOrder() {
        EventStore store = new EventStore(100, 1L << 30);
        store.add("Kind/default/a", "Normal", "Converged", "converged", NOW.minusSeconds(5), "1", 1);
        store.add("Kind/default/b", "Normal", "Converged", "converged", NOW.minus(WINDOW).minusSeconds(5), "2", 1);
        store.add("Kind/default/c", "Normal", "Converged", "converged", NOW.minus(WINDOW).minusSeconds(9), "4", 1);
        store.add("Kind/default/c", "Warning", "ApplyFailed", "boom", NOW.minusSeconds(2), "5", 1);

        store.pruneFront(NOW.minus(WINDOW));
        assertThat(store.resources()).as("b sits behind a fresh resource in arrival order").isEqualTo(3);
        store.pruneOlderThan(NOW.minus(WINDOW));

        assertThat(store.resources()).isEqualTo(2);
        assertThat(store.events("Kind/default/c", Instant.EPOCH)).extracting(e -> e.reason()).containsExactly("ApplyFailed");
        assertThat(store.bytes()).isEqualTo(bytesOfOne("Kind/default/c", "ApplyFailed", "boom")
            + bytesOfOne("Kind/default/a", "Converged", "converged"));
    }

    @Test
    void shouldStayWithinItsByteBudgetWithAMillionResourcesOfOneEntryEach() {
        long budget = 4L << 20;
        EventStore store = new EventStore(100, budget);
        for (int i = 0; i < 1_000_000; i++) {
            store.add("WebApp/default/app-" + i, "Normal", "Converged", "Converged after 12 ms", NOW, String.valueOf(i), 1);
            if (i % 10_000 == 0) {
                assertThat(store.bytes()).isLessThanOrEqualTo(budget);
            }
        }
        assertThat(store.bytes()).isLessThanOrEqualTo(budget);
        assertThat(store.events("WebApp/default/app-999999", Instant.EPOCH)).as("the newest resource keeps its entry").hasSize(1);
        assertThat(store.events("WebApp/default/app-0", Instant.EPOCH)).as("the oldest resource lost its entry").isEmpty();
    }

    @Test
    void shouldCountWhatItsEntriesCostTheHeap() {
        EventStore store = new EventStore(100, 1L << 30);
        store.add("warm/up/x", "Normal", "Converged", "x", NOW, "1", 1);
        store.add("warm/up/x", "Warning", "ApplyFailed", "x", NOW, "1", 1);
        long empty = heapUsed() - store.bytes();
        for (int i = 0; i < 200_000; i++) {
            String key = "WebApp/default/app-" + i;
            store.add(key, "Normal", "Converged", "Converged after " + i + " ms", NOW, String.valueOf(i), 1);
            if (i % 3 == 0) {
                store.add(key, "Warning", "ApplyFailed", "connection refused by host-" + i, NOW, "v" + i, 2);
            }
        }
        long measured = heapUsed() - empty;
        java.lang.ref.Reference.reachabilityFence(store);
        assertThat((double) store.bytes()).isCloseTo(measured, within(measured * 0.1));
    }

    /** The heap in use after full collections, which the store's objects dominate once it holds a few tens of MB. */
    private static long heapUsed() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }

    @Test
    void shouldAggregateRepeatsIntoOneEntryAndKeepTheNewestPerResourceWithinItsCap() {
        EventStore store = new EventStore(3, 1L << 30);
        for (int i = 0; i < 5; i++) {
            store.add("k/d/n", "Warning", "ApplyFailed", "boom", NOW.plusSeconds(i), String.valueOf(10 + i), 1);
        }
        for (int i = 0; i < 4; i++) {
            store.add("k/d/n", "Normal", "Reason" + i, "m", NOW.plusSeconds(10 + i), "20", 1);
        }
        var events = store.events("k/d/n", Instant.EPOCH);
        assertThat(events).extracting(e -> e.reason()).containsExactly("Reason3", "Reason2", "Reason1");
        store.add("k/d/n", "Normal", "Reason1", "m", NOW.plusSeconds(30), "21", 1);
        events = store.events("k/d/n", Instant.EPOCH);
        assertThat(events).extracting(e -> e.reason()).containsExactly("Reason1", "Reason3", "Reason2");
        assertThat(events.get(0).count()).isEqualTo(2);
        assertThat(events.get(0).resourceVersion()).isEqualTo("21");
        assertThat(events.get(0).firstTimestamp()).isEqualTo(NOW.plusSeconds(11));
    }

    private static long bytesOfOne(String key, String reason, String message) {
        EventStore one = new EventStore(100, 1L << 30);
        one.add(key, "Normal", reason, message, NOW, "5", 1);
        return one.bytes();
    }
}
