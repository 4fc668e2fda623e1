package io.statesync.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.schemas.Values;

/**
 * Steady load around a fault: desired writes, an agent, and a tail of statesync.resources. {@link #finish} stops
 * the writes and says which acknowledged writes never reached statesync.resources and which corrections repeated.
 * Start it only once the app has created its topics: a consumer subscribing earlier would auto-create them wrongly.
 */
final class LoadedPipeline implements AutoCloseable {

    /**
     * What the load saw across the fault. {@code undecodable} counts records of statesync.resources and
     * statesync.corrections that the tails could not decode and skipped: statesync must never write one.
     */
    record Outcome(int ackedWrites, int lostWrites, long corrections, long duplicateCorrections, long supersededAtSameAttempt,
                   List<String> samples, long undecodable, List<String> undecodableSamples) {

        /** Nothing acknowledged lost, no correction replayed, every output record decoded. */
        boolean intact() {
            return lostWrites == 0 && duplicateCorrections == 0 && undecodable == 0;
        }
    }

    private final Set<String> written = ConcurrentHashMap.newKeySet();
    private final Map<String, Resource> latest = new ConcurrentHashMap<>();
    private final TopicTail<Resource> resources;
    private final LoadAgent agent;
    private final DesiredLoad load;

    LoadedPipeline(ScenarioTarget target, String kind) {
        this(target, kind, true);
    }

    /** @param startNow false to hold the writes until {@link #startWrites()}; their schema is resolved already */
    LoadedPipeline(ScenarioTarget target, String kind, boolean startNow) {
        resources = new TopicTail<>(target.clientProps(), target.topics().resources(), target.serdes().resource().deserializer(),
            r -> collect(r.key(), r.value()));
        agent = new LoadAgent(target);
        load = new DesiredLoad(target, kind, 50, 40, startNow);
    }

    void startWrites() {
        load.start();
    }

    private void collect(String key, Resource r) {
        if (r != null) {
            latest.put(key, r);
        }
        if (r != null && Values.toJava(r.getSpec()) instanceof Map<?, ?> spec && spec.get("seq") != null) {
            written.add(key + "#" + spec.get("seq"));
        }
    }

    /**
     * The newest resourceVersion of {@code key} committed on statesync.resources as far as this tail has read, or -1
     * when none was read yet: a read that names it ({@code ?resourceVersion=}) must get that version or a newer one.
     */
    long committedVersion(String key) {
        Resource r = latest.get(key);
        String v = r == null ? null : r.getMetadata().getResourceVersion();
        return v == null || v.isEmpty() ? -1 : Long.parseLong(v);
    }

    /** Acknowledged writes seen on statesync.resources so far. */
    int written() {
        return written.size();
    }

    /**
     * Keys whose newest Resource is not Synced at its own generation. Empty at the end means every accepted
     * generation was reconciled or overtaken by a later one that was: a check that still holds when reconciles of
     * one key are coalesced, where "every write got a correction" would not.
     */
    List<String> notSynced() {
        return latest.entrySet().stream().filter(e -> !syncedAtGeneration(e.getValue()))
            .map(e -> e.getKey() + " gen " + e.getValue().getMetadata().getGeneration() + " "
                + e.getValue().getStatus().getSyncStatus() + " at " + e.getValue().getStatus().getObservedGeneration())
            .sorted().toList();
    }

    private static boolean syncedAtGeneration(Resource r) {
        return r.getStatus().getSyncStatus() == SyncStatus.Synced
            && r.getStatus().getObservedGeneration() >= r.getMetadata().getGeneration();
    }

    /** Corrections the agent has applied so far. */
    long corrections() {
        return agent.corrections();
    }

    /** Writes acknowledged so far. */
    int acked() {
        return load.acked().size();
    }

    Outcome finish(Duration timeout) throws InterruptedException {
        load.close();
        Set<String> acked = new HashSet<>(load.acked());
        Waits.until(() -> written.containsAll(acked), timeout);
        // Let corrections for the last writes arrive, so that a late duplicate would still be counted.
        Waits.sleep(3_000);
        int lost = (int) acked.stream().filter(id -> !written.contains(id)).count();
        List<String> undecodable = new ArrayList<>(resources.badRecordSamples());
        undecodable.addAll(agent.undecodableSamples());
        return new Outcome(acked.size(), lost, agent.corrections(), agent.duplicates(), agent.superseded(), agent.samples(),
            resources.badRecords() + agent.undecodable(), undecodable);
    }

    @Override
    public void close() throws InterruptedException {
        load.close();
        agent.close();
        resources.close();
    }
}
