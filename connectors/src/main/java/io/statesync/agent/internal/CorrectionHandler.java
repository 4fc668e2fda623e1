package io.statesync.agent.internal;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.statesync.agent.Observation;
import io.statesync.agent.ResourceAgent;
import io.statesync.agent.ResourceRef;
import io.statesync.avro.Action;
import io.statesync.avro.ApplyError;
import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies one correction and reports the outcome. Runs on a {@link KeyedExecutor} thread, one key at a time. */
public final class CorrectionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(CorrectionHandler.class);

    private final ResourceAgent agent;
    private final ObservedReports reports;
    private final ObservedReporter reporter;
    private final AgentMemory memory;
    private final ExecutorService applies;
    private final Duration applyTimeout;

    /**
     * @param applies      runs each apply, so that this thread can stop waiting for one that hangs
     * @param applyTimeout how long an apply may take before it counts as a transient failure
     */
    public CorrectionHandler(ResourceAgent agent, ObservedReports reports, ObservedReporter reporter,
                             AgentMemory memory, ExecutorService applies, Duration applyTimeout) {
        this.agent = agent;
        this.reports = reports;
        this.reporter = reporter;
        this.memory = memory;
        this.applies = applies;
        this.applyTimeout = applyTimeout;
    }

    /**
     * Applies, observes and reports.
     *
     * @throws ObservedReporter.ReportFailedException when the report was not acknowledged, so the caller must not
     *     commit the correction
     */
    public void handle(Correction c) throws ObservedReporter.ReportFailedException {
        ResourceRef ref = new ResourceRef(c.getKind(), c.getNamespace(), c.getName());
        Throwable failure = apply(c);
        Observation seen;
        try {
            seen = agent.observe(ref);
        } catch (Exception e) {
            // Without a reading there is nothing true to report; the correction's deadline makes statesync retry.
            LOG.warn("Cannot observe {} after applying {}; not reporting", ref, c.getCommandId(), e);
            return;
        }
        reporter.sendAndAwait(report(c, ref, seen == null ? Observation.absent(ref) : seen, failure));
    }

    /**
     * Applies on the apply pool and waits at most the timeout. A hung apply is interrupted and reported as a transient
     * failure, so the key's later corrections are not held up by it; whatever it does or returns afterwards is ignored.
     */
    private Throwable apply(Correction c) {
        Future<?> running = applies.submit(() -> {
            agent.apply(c);
            return null;
        });
        Throwable failure;
        try {
            running.get(applyTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            failure = e.getCause() == null ? e : e.getCause();
        } catch (TimeoutException e) {
            running.cancel(true);
            failure = new TimeoutException("apply did not finish within " + applyTimeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            running.cancel(true);
            Thread.currentThread().interrupt();
            failure = e;
        }
        LOG.debug("Apply of {} to {}/{}/{} failed", c.getCommandId(), c.getKind(), c.getNamespace(), c.getName(),
            failure);
        return failure;
    }

    private ObservedState report(Correction c, ResourceRef ref, Observation seen, Throwable failure) {
        String key = ref.key();
        if (failure == null) {
            if (c.getAction() == Action.DELETE && seen.isAbsent()) {
                memory.forget(key);
            } else {
                memory.applied(key, c.getUid(), c.getGeneration(), c.getCommandId());
            }
            return reports.applied(c, seen);
        }
        Condition condition = reports.failure(c, failure);
        ApplyError error = reports.error(c, failure);
        memory.failed(key, c.getUid(), condition, error, c.getCommandId());
        AgentMemory.Entry entry = memory.get(key);
        long applied = seen.observedGeneration() > 0 ? seen.observedGeneration() : entry.generation();
        return reports.failed(c, seen, applied, condition, error);
    }
}
