package io.statesync.agent.internal;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.statesync.agent.Observation;
import io.statesync.agent.ResourceAgent;
import io.statesync.agent.ResourceRef;
import io.statesync.avro.ObservedState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the world and reports every resource, so drift made behind statesync's back is seen, and reports
 * {@code state = null} for remembered resources the list no longer contains.
 */
public final class ResyncTask implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ResyncTask.class);

    private final ResourceAgent agent;
    private final Set<String> kinds;
    private final ObservedReports reports;
    private final ObservedReporter reporter;
    private final AgentMemory memory;
    private final Clock clock;

    public ResyncTask(ResourceAgent agent, Set<String> kinds, ObservedReports reports, ObservedReporter reporter,
                      AgentMemory memory, Clock clock) {
        this.agent = agent;
        this.kinds = Set.copyOf(kinds);
        this.reports = reports;
        this.reporter = reporter;
        this.memory = memory;
        this.clock = clock;
    }

    @Override
    public void run() {
        try {
            resync();
        } catch (Exception e) {
            // A failed resync is retried on the next interval; it must not kill the scheduler.
            LOG.warn("Resync failed", e);
        }
    }

    /** Lists, reports and waits for the acknowledgements; returns how many reports were sent. */
    public int resync() throws Exception {
        // Timestamp before listing: a report must never look newer than an apply that raced with the list.
        Instant listedAt = clock.instant();
        Collection<Observation> listed = agent.list();
        List<ObservedState> out = new ArrayList<>(listed.size());
        Set<String> present = new HashSet<>();
        for (Observation seen : listed) {
            if (seen == null || !manages(seen.ref()) || seen.isAbsent()) {
                continue;
            }
            String key = seen.ref().key();
            present.add(key);
            out.add(reports.resynced(seen, memory.get(key), listedAt));
            memory.seen(key, seen.uid(), seen.observedGeneration());
        }
        List<String> gone = new ArrayList<>();
        for (String key : memory.keys()) {
            ResourceRef ref = ResourceRef.parse(key);
            if (!present.contains(key) && manages(ref)) {
                out.add(reports.resynced(Observation.absent(ref), memory.get(key), listedAt));
                gone.add(key);
            }
        }
        reporter.sendAllAndAwait(out);
        gone.forEach(memory::forget);
        return out.size();
    }

    /** Observes and reports one resource now, e.g. right after the agent noticed it change. */
    public void reportOne(ResourceRef ref) throws Exception {
        Instant seenAt = clock.instant();
        Observation seen = agent.observe(ref);
        Observation observation = seen == null ? Observation.absent(ref) : seen;
        reporter.sendAndAwait(reports.resynced(observation, memory.get(ref.key()), seenAt));
        if (!observation.isAbsent()) {
            memory.seen(ref.key(), observation.uid(), observation.observedGeneration());
        }
    }

    private boolean manages(ResourceRef ref) {
        return kinds.isEmpty() || kinds.contains(ref.kind());
    }
}
