package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.statesync.avro.store.ReconcileState;
import io.statesync.topology.internal.DecodedStateStore;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The timer's sweep gives a timer to a state that came with the store without one. */
class ResyncSweepTopologyTest {

    private static final String KEY = "WebApp/default/a";

    @TempDir
    Path stateDir;

    @Test
    void shouldArmATimerForAStateKeptWithoutOne() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of())) {
            f.putDesired(TopologyFixture.desiredState(KEY, Map.of("replicas", 1L)));
            DecodedStateStore states = (DecodedStateStore) (Object) f.driver.getKeyValueStore(StatesyncTopology.STATE_STORE);
            KeyValueStore<String, byte[]> timers = f.driver.getKeyValueStore(TopologyNames.TIMER_STORE);
            assertThat(timerKeys(timers)).as("the reconcile armed one").singleElement().asString().endsWith("|" + KEY);

            // As a release that kept no timer index left it: a state with no timer, and no entry in the index.
            ReconcileState kept = states.get(KEY);
            kept.setNextCheckAt(0);
            states.put(KEY, kept);
            timerKeys(timers).forEach(timers::delete);

            f.advance(Duration.ofMillis(100));

            assertThat(timerKeys(timers)).singleElement().asString().endsWith("|" + KEY);
            assertThat(states.cached(KEY).getNextCheckAt()).isPositive();
        }
    }

    private static List<String> timerKeys(KeyValueStore<String, byte[]> timers) {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = timers.all()) {
            it.forEachRemaining((KeyValue<String, byte[]> kv) -> keys.add(kv.key));
        }
        return keys;
    }
}
