package io.statesync.agent.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.statesync.avro.ApplyError;
import io.statesync.avro.Condition;

/**
 * What the agent remembers per key between reports: the uid and generation it last applied (so a resync report of a
 * world that keeps neither still acknowledges the right generation), the last command it acknowledged (so a resync
 * report does not withdraw the ack and leave statesync waiting for the deadline) and the last apply failure (so a
 * resync does not silently clear it, nor turn a terminal failure into a retry). Its keys are also the resources to report absent when a resync no longer lists
 * them.
 */
public final class AgentMemory {

    /**
     * uid and generation last applied; failure is the ApplyFailed condition and error the report's error, both null
     * after a success.
     */
    public record Entry(String uid, long generation, Condition failure, String ackCommandId, ApplyError error) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    public Entry get(String key) {
        return entries.get(key);
    }

    public void applied(String key, String uid, long generation, String commandId) {
        entries.put(key, new Entry(uid, generation, null, commandId, null));
    }

    public void failed(String key, String uid, Condition failure, ApplyError error, String commandId) {
        entries.merge(key, new Entry(uid, 0L, failure, commandId, error),
            (old, fresh) -> new Entry(uid, old.generation(), failure, commandId, error));
    }

    /** Remembers a listed resource without forgetting what was applied to it. */
    public void seen(String key, String uid, long generation) {
        entries.merge(key, new Entry(uid, generation, null, null, null), (old, fresh) -> new Entry(
            uid != null ? uid : old.uid(), Math.max(generation, old.generation()), old.failure(), old.ackCommandId(),
            old.error()));
    }

    public void forget(String key) {
        entries.remove(key);
    }

    public Set<String> keys() {
        return Set.copyOf(entries.keySet());
    }
}
