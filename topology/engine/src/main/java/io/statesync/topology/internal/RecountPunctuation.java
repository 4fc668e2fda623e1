package io.statesync.topology.internal;

import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.Punctuator;

/**
 * Goes on with a task's resource recount at each punctuation, for a time budget, until it ends; then cancels itself.
 * Slices wait until the client runs: before that, the stream threads still initialise the other tasks, readiness
 * waits for them, and a recount decodes every stored state, which on a small instance takes the cores they need.
 */
final class RecountPunctuation implements Punctuator {

    private final BooleanSupplier clientRunning;
    private final LongPredicate recountSome;
    private final long budgetNanos;
    private Cancellable schedule;

    /** {@code recountSome} counts for about the given nanoseconds and answers whether the recount has ended. */
    RecountPunctuation(BooleanSupplier clientRunning, LongPredicate recountSome, long budgetNanos) {
        this.clientRunning = clientRunning;
        this.recountSome = recountSome;
        this.budgetNanos = budgetNanos;
    }

    /** The schedule to cancel once the recount has ended. */
    RecountPunctuation cancelling(Cancellable schedule) {
        this.schedule = schedule;
        return this;
    }

    @Override
    public void punctuate(long timestamp) {
        if (clientRunning.getAsBoolean() && recountSome.test(budgetNanos)) {
            schedule.cancel();
        }
    }
}
