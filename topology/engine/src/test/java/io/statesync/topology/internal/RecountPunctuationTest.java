package io.statesync.topology.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.statesync.topology.ClientRunning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The recount's punctuation: slices only while the client runs, and its schedule ends with the recount. */
class RecountPunctuationTest {

    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final List<Long> slices = new ArrayList<>();
    private int slicesLeft = 2;

    private RecountPunctuation punctuation() {
        return new RecountPunctuation(running::get, budget -> {
            slices.add(budget);
            return --slicesLeft == 0;
        }, 25).cancelling(() -> cancelled.set(true));
    }

    @Test
    void shouldNotCountWhileTheClientIsNotRunning() {
        RecountPunctuation p = punctuation();
        p.punctuate(1);
        p.punctuate(2);
        assertThat(slices).as("no slice before the client runs").isEmpty();
        assertThat(cancelled).isFalse();
    }

    @Test
    void shouldCountWithItsBudgetOnceTheClientRunsAndCancelWhenTheRecountEnds() {
        RecountPunctuation p = punctuation();
        p.punctuate(1);
        running.set(true);
        p.punctuate(2);
        assertThat(slices).containsExactly(25L);
        assertThat(cancelled).as("the recount has not ended").isFalse();
        p.punctuate(3);
        assertThat(slices).containsExactly(25L, 25L);
        assertThat(cancelled).as("cancelled once the recount ended").isTrue();
    }

    @Test
    void shouldTreatAnInstanceWithoutAClientStateAsRunning() {
        assertThat(ClientRunning.in(Map.of()).getAsBoolean()).isTrue();
        ClientRunning held = new ClientRunning();
        held.follow(() -> false);
        assertThat(ClientRunning.in(Map.of(ClientRunning.CONFIG_KEY, held))
            .getAsBoolean()).isFalse();
    }
}
