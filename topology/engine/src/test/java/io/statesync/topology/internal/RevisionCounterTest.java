package io.statesync.topology.internal;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RevisionCounterTest {

    private KeyValueStore<String, Long> store;
    private final List<Long> writes = new ArrayList<>();

    /** The store is the collaborator: a map that records each put (get and put are all the counter may call). */
    @BeforeEach
    @SuppressWarnings("unchecked")
    void setUp() {
        Map<String, Long> map = new HashMap<>();
        store = (KeyValueStore<String, Long>) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> switch (method.getName()) {
                case "get" -> map.get((String) args[0]);
                case "put" -> {
                    writes.add((Long) args[1]);
                    map.put((String) args[0], (Long) args[1]);
                    yield null;
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }

    @Test
    void shouldIssueConsecutiveVersionsAndWriteTheStoreOncePerBlock() {
        RevisionCounter counter = new RevisionCounter();
        List<Long> issued = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            issued.add(counter.next(store));
        }
        assertThat(issued.get(0)).isEqualTo(1);
        assertThat(issued.get(2_499)).isEqualTo(2_500);
        assertThat(writes).containsExactly(RevisionCounter.BLOCK, 2 * RevisionCounter.BLOCK, 3 * RevisionCounter.BLOCK);
    }

    @Test
    void shouldContinueAboveEveryIssuedVersionAfterForgetting() {
        RevisionCounter counter = new RevisionCounter();
        long last = 0;
        for (int i = 0; i < 10; i++) {
            last = counter.next(store);
        }
        counter.forget();
        assertThat(counter.next(store)).isGreaterThan(last).isEqualTo(RevisionCounter.BLOCK + 1);
        // A new counter over the same store (a restart, or the task on another instance) too.
        assertThat(new RevisionCounter().next(store)).isGreaterThan(RevisionCounter.BLOCK + 1);
    }

    @Test
    void shouldTakeALastIssuedValueFromBeforeTheBlocksAsItsReservedMark() {
        store.put(RevisionCounter.KEY, 41L);
        writes.clear();
        RevisionCounter counter = new RevisionCounter();
        assertThat(counter.next(store)).isEqualTo(42);
        assertThat(writes).containsExactly(41L + RevisionCounter.BLOCK);
    }
}
