package io.statesync.launcher;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import sun.misc.Signal;

/**
 * Runs {@code up}'s stop sequence (agent, pipeline, then broker and registry) on Ctrl-C or SIGTERM before the JVM
 * starts its shutdown hooks. Hooks run concurrently, so with a hook alone the embedded runtime's child reaper would
 * stop the broker while the pipeline is still closing: its consumers would never leave the group, and the next
 * {@code up} would wait out the session timeout in REBALANCING. A second Ctrl-C exits at once.
 */
final class OrderlyShutdown {

    private final Runnable stopSequence;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);

    private OrderlyShutdown(Runnable stopSequence) {
        this.stopSequence = stopSequence;
    }

    /** Installs the handlers, plus a shutdown hook for exits that are not INT or TERM. */
    static OrderlyShutdown install(Runnable stopSequence) {
        OrderlyShutdown shutdown = new OrderlyShutdown(stopSequence);
        for (String name : new String[] {"INT", "TERM"}) {
            Signal.handle(new Signal(name), signal -> shutdown.onSignal(signal.getNumber()));
        }
        Runtime.getRuntime().addShutdownHook(new Thread(shutdown::stopOnce, "statesync-up-shutdown"));
        return shutdown;
    }

    /** Blocks until the stop sequence has run. */
    void await() throws InterruptedException {
        done.await();
    }

    private void onSignal(int number) {
        if (started.get()) {
            System.err.println("Stopping now, without waiting for a clean stop.");
            System.exit(128 + number);
        }
        stopOnce();
    }

    void stopOnce() {
        if (started.compareAndSet(false, true)) {
            try {
                stopSequence.run();
            } finally {
                done.countDown();
            }
        }
    }
}
