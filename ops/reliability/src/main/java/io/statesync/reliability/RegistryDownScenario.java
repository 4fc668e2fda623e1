package io.statesync.reliability;

import java.time.Duration;

import io.statesync.embedded.EmbeddedRegistry;

/**
 * Registry down mid-load: the schema registry is stopped while statesync and the load run. Every schema in use
 * has been seen before the outage, so the cached ids must keep writes flowing into statesync.resources throughout,
 * and nothing acknowledged may be lost.
 */
public final class RegistryDownScenario {

    /** The figures of one run; {@code writtenDuringOutage} counts writes that reached statesync.resources while it was down. */
    public record Report(Duration outage, int writtenDuringOutage, LoadedPipeline.Outcome load, boolean appAlwaysRunning,
                         Duration elapsed) {

        public boolean passed() {
            return load.lostWrites() == 0 && load.duplicateCorrections() == 0 && appAlwaysRunning && writtenDuringOutage > 0;
        }
    }

    private final ScenarioTarget target;
    private final EmbeddedRegistry registry;

    public RegistryDownScenario(ScenarioTarget target, EmbeddedRegistry registry) {
        this.target = target;
        this.registry = registry;
    }

    public Report run(Duration up, Duration outage, Duration timeout) throws Exception {
        long start = System.nanoTime();
        boolean alwaysRunning = true;
        try (LoadedPipeline load = new LoadedPipeline(target, "RegistryLoad")) {
            // Only schemas already used can be cached: wait until Resources and corrections have flowed end to end.
            if (!Waits.until(() -> load.written() > 0 && load.corrections() > 0, timeout)) {
                throw new IllegalStateException("no write reached statesync.resources within " + timeout + " before the outage");
            }
            Waits.sleep(up.toMillis());
            registry.stop();
            int before = load.written();
            long outageEnd = System.nanoTime() + outage.toNanos();
            while (System.nanoTime() < outageEnd) {
                alwaysRunning &= target.appRunning().getAsBoolean();
                Waits.sleep(500);
            }
            int during = load.written() - before;
            registry.start();
            Waits.sleep(up.toMillis());
            LoadedPipeline.Outcome outcome = load.finish(timeout);
            alwaysRunning &= target.appRunning().getAsBoolean();
            return new Report(outage, during, outcome, alwaysRunning, Duration.ofNanos(System.nanoTime() - start));
        }
    }
}
