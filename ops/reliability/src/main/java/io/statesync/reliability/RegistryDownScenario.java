package io.statesync.reliability;

import java.time.Duration;

import io.statesync.embedded.EmbeddedRegistry;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Registry down under load, in two shapes. Mid-load ({@link #run}): every schema in use has been seen before the
 * outage, so the cached ids must keep writes flowing into statesync.resources throughout. From the start
 * ({@link #runDownFromStart}): statesync has resolved no schema yet, so it cannot decode a single input until the
 * registry is back; the processing must fail and retry rather than dead-letter. Either way nothing acknowledged
 * may be lost and nothing may reach statesync.dlq.
 */
public final class RegistryDownScenario {

    /**
     * The figures of one run; {@code writtenDuringOutage} counts writes that reached statesync.resources while it was
     * down, {@code dlqRecords} what reached statesync.dlq in the whole run (all the load's records are valid).
     */
    public record Report(boolean fromStart, Duration outage, int writtenDuringOutage, LoadedPipeline.Outcome load,
                         boolean appAlwaysRunning, boolean appRunningAtEnd, long dlqRecords, Duration elapsed) {

        public boolean passed() {
            boolean flowed = fromStart || writtenDuringOutage > 0 && appAlwaysRunning;
            return flowed && load.intact() && appRunningAtEnd && dlqRecords == 0;
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
        try (LoadedPipeline load = new LoadedPipeline(target, "RegistryLoad"); TopicTail<byte[]> dlq = dlqTail()) {
            // Only schemas already used can be cached: wait until Resources and corrections have flowed end to end.
            if (!Waits.until(() -> load.written() > 0 && load.corrections() > 0, timeout)) {
                throw new IllegalStateException("no write reached statesync.resources within " + timeout + " before the outage");
            }
            Waits.sleep(up.toMillis());
            registry.stop();
            return afterStop(false, load, dlq, up, outage, timeout, start);
        }
    }

    /**
     * The app must be started (with the registry up) and have processed nothing: only the load's writer has resolved
     * its schema, so that acknowledged writes arrive while statesync has nothing cached.
     */
    public Report runDownFromStart(Duration up, Duration outage, Duration timeout) throws Exception {
        long start = System.nanoTime();
        try (LoadedPipeline load = new LoadedPipeline(target, "RegistryColdLoad", false); TopicTail<byte[]> dlq = dlqTail()) {
            registry.stop();
            load.startWrites();
            return afterStop(true, load, dlq, up, outage, timeout, start);
        }
    }

    private Report afterStop(boolean fromStart, LoadedPipeline load, TopicTail<byte[]> dlq, Duration up, Duration outage,
                             Duration timeout, long start) throws InterruptedException {
        int before = load.written();
        boolean alwaysRunning = true;
        long outageEnd = System.nanoTime() + outage.toNanos();
        while (System.nanoTime() < outageEnd) {
            alwaysRunning &= target.appRunning().getAsBoolean();
            Waits.sleep(500);
        }
        int during = load.written() - before;
        registry.start();
        Waits.sleep(up.toMillis());
        LoadedPipeline.Outcome outcome = load.finish(timeout);
        boolean runningAtEnd = target.appRunning().getAsBoolean();
        return new Report(fromStart, outage, during, outcome, alwaysRunning, runningAtEnd, dlq.count(),
            Duration.ofNanos(System.nanoTime() - start));
    }

    private TopicTail<byte[]> dlqTail() {
        return new TopicTail<>(target.clientProps(), target.topics().dlq(), new ByteArrayDeserializer(), r -> { });
    }
}
