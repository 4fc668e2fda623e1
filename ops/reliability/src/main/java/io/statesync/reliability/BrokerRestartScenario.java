package io.statesync.reliability;

import java.time.Duration;

import io.statesync.embedded.EmbeddedKafka;

/**
 * Broker restart mid-load: the (child-process) broker is stopped and started again while statesync and the load
 * run; statesync must come back to RUNNING on its own and lose no acknowledged write.
 */
public final class BrokerRestartScenario {

    /** The figures of one run; {@code recovery} is from the broker being back to statesync RUNNING with new writes flowing. */
    public record Report(int restarts, LoadedPipeline.Outcome load, Duration maxRecovery, boolean appRunningAtEnd, Duration elapsed) {

        public boolean passed() {
            return load.intact() && appRunningAtEnd;
        }
    }

    private final ScenarioTarget target;
    private final EmbeddedKafka broker;

    public BrokerRestartScenario(ScenarioTarget target, EmbeddedKafka broker) {
        this.target = target;
        this.broker = broker;
    }

    public Report run(int restarts, Duration up, Duration down, Duration timeout) throws Exception {
        long start = System.nanoTime();
        Duration maxRecovery = Duration.ZERO;
        try (LoadedPipeline load = new LoadedPipeline(target, "BrokerLoad")) {
            for (int i = 0; i < restarts; i++) {
                Waits.sleep(up.toMillis());
                broker.stop();
                Waits.sleep(down.toMillis());
                broker.start();
                long back = System.nanoTime();
                int ackedBefore = load.acked();
                if (!Waits.until(() -> target.appRunning().getAsBoolean() && load.acked() > ackedBefore, timeout)) {
                    throw new IllegalStateException("statesync did not recover within " + timeout + " after broker restart " + i);
                }
                Duration recovery = Duration.ofNanos(System.nanoTime() - back);
                maxRecovery = recovery.compareTo(maxRecovery) > 0 ? recovery : maxRecovery;
            }
            Waits.sleep(up.toMillis());
            LoadedPipeline.Outcome outcome = load.finish(timeout);
            return new Report(restarts, outcome, maxRecovery, target.appRunning().getAsBoolean(),
                Duration.ofNanos(System.nanoTime() - start));
        }
    }
}
