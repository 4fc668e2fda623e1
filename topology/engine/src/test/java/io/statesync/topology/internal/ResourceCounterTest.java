package io.statesync.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.topology.ReconcileMetrics;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/** The task's share of statesync_resources when its store is recounted a slice at a time while keys keep moving. */
class ResourceCounterTest {

    private static final String[] SERIES = {
        ReconcileMetrics.series("WebApp", "Synced", "Healthy"), ReconcileMetrics.series("WebApp", "OutOfSync", "Degraded"),
        ReconcileMetrics.series("Queue", "Progressing", "Missing"), null};

    /**
     * A task's store as the counter sees it: committed states in byte order of keys, and changed ones that reach the
     * store only when written through, as with the decoded-state cache.
     */
    private static final class FakeStore implements ResourceCounter.Source {
        final TreeMap<String, String> stored = new TreeMap<>((a, b) ->
            Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
        final Map<String, String> changed = new LinkedHashMap<>();
        final Map<String, Boolean> deleted = new HashMap<>();
        int slices;

        @Override
        public List<KeyValue<String, String>> slice(String fromExclusive, int limit) {
            slices++;
            List<KeyValue<String, String>> out = new ArrayList<>();
            var tail = fromExclusive == null ? stored : stored.tailMap(fromExclusive, false);
            for (var e : tail.entrySet()) {
                if (out.size() == limit) {
                    break;
                }
                out.add(KeyValue.pair(e.getKey(), e.getValue()));
            }
            return out;
        }

        @Override
        public void writeThrough() {
            stored.putAll(changed);
            changed.clear();
        }

        /** The series the key counts in now, written or not. */
        String current(String key) {
            return changed.containsKey(key) ? changed.get(key) : stored.get(key);
        }

        boolean exists(String key) {
            return changed.containsKey(key) || stored.containsKey(key);
        }

        Map<String, Long> truth() {
            Map<String, String> all = new HashMap<>(stored);
            all.putAll(changed);
            Map<String, Long> counts = new HashMap<>();
            all.values().stream().filter(s -> s != null).forEach(s -> counts.merge(s, 1L, Long::sum));
            return counts;
        }
    }

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ReconcileMetrics metrics = new ReconcileMetrics(registry);

    private long gauge(String series) {
        String[] p = series.split("\\|");
        Gauge g = registry.find("statesync_resources").tags("kind", p[0], "sync_status", p[1], "health", p[2]).gauge();
        return g == null ? 0 : Math.round(g.value());
    }

    private Map<String, Long> gauges() {
        Map<String, Long> out = new HashMap<>();
        for (String s : SERIES) {
            if (s != null && gauge(s) != 0) {
                out.put(s, gauge(s));
            }
        }
        return out;
    }

    /** One reconcile of a random key: its series changes (or it appears or goes), unwritten as in the cache. */
    private static void move(FakeStore store, ResourceCounter counter, SplittableRandom rnd, String[] keys) {
        String key = keys[rnd.nextInt(keys.length)];
        String from = store.current(key);
        if (store.exists(key) && rnd.nextInt(5) == 0) {
            store.stored.remove(key); // a delete reaches the store at once, as DecodedStateStore.remove does
            store.changed.remove(key);
            counter.moved(key, from, null);
            return;
        }
        String to = SERIES[rnd.nextInt(SERIES.length)];
        store.changed.put(key, to);
        counter.moved(key, from, to);
    }

    private static String[] keys(int n) {
        String[] names = {"a", "é", "\uE000", "\uD83D\uDE00", "Z"};
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            keys[i] = "WebApp/default/" + names[i % names.length] + i;
        }
        return keys;
    }

    @Test
    void shouldEndWithWhatTheStoreHoldsWhileKeysMoveAppearAndGoDuringTheRecount() {
        for (long seed = 1; seed <= 40; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            FakeStore store = new FakeStore();
            String[] keys = keys(200);
            for (String k : keys) {
                if (rnd.nextBoolean()) {
                    store.stored.put(k, SERIES[rnd.nextInt(SERIES.length)]);
                }
            }
            String task = "0_" + seed;
            ResourceCounter counter = new ResourceCounter(metrics, task, store, 7, () -> 0L);
            counter.startRecount();
            while (!counter.recount(0)) {
                for (int i = rnd.nextInt(6); i > 0; i--) {
                    move(store, counter, rnd, keys);
                }
            }
            assertThat(gauges()).as("seed %d, after the recount", seed).isEqualTo(store.truth());
            for (int i = 0; i < 50; i++) {
                move(store, counter, rnd, keys);
            }
            assertThat(gauges()).as("seed %d, moves after the recount", seed).isEqualTo(store.truth());
            metrics.taskClosed(task);
        }
    }

    @Test
    void shouldCountASmallStoreInTheFirstSliceAndALargeOneOverSeveral() {
        FakeStore store = new FakeStore();
        for (String k : keys(20)) {
            store.stored.put(k, SERIES[0]);
        }
        ResourceCounter counter = new ResourceCounter(metrics, "0_0", store, 100, () -> 0L);
        counter.startRecount();
        assertThat(counter.recount(0)).isTrue();
        assertThat(gauge(SERIES[0])).isEqualTo(20);

        long[] clock = {0};
        ResourceCounter sliced = new ResourceCounter(metrics, "0_0", store, 5, () -> clock[0] += 10);
        sliced.startRecount();
        store.slices = 0;
        assertThat(sliced.recount(15)).as("a budget of 15 ns on a clock that moves 10 per read").isFalse();
        assertThat(store.slices).isEqualTo(2);
        assertThat(gauge(SERIES[0])).as("the earlier totals stand until the recount ends").isEqualTo(20);
        while (!sliced.recount(25)) {
            assertThat(sliced.counting()).isTrue();
        }
        assertThat(sliced.counting()).isFalse();
        assertThat(gauge(SERIES[0])).isEqualTo(20);
    }
}
