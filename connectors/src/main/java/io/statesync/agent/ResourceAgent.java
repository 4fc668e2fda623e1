package io.statesync.agent;

import java.util.Collection;
import java.util.Set;

import io.statesync.avro.Correction;

/**
 * The part of an agent a user writes: how to read the real world and how to change it. The library
 * ({@link StatesyncAgent}) does the Kafka side: consuming corrections, ordering, reporting and committing.
 *
 * <p>Calls for one key never overlap; calls for different keys may run concurrently, so implementations must be
 * thread-safe across keys.
 */
public interface ResourceAgent {

    /** The kinds this agent manages; an empty set means every kind. */
    Set<String> kinds();

    /** Reads one resource now; {@link Observation#absent} when it does not exist. */
    Observation observe(ResourceRef ref) throws Exception;

    /** Reads every resource of the managed kinds; used on each resync to report drift and disappearances. */
    Collection<Observation> list() throws Exception;

    /**
     * Makes the world match the correction: create, update (from {@code patch} or {@code desiredSpec}) or delete.
     * Throwing reports the failure as an {@code ApplyFailed} condition and the report's {@code error}: a
     * {@link TerminalApplyException} stalls the resource until its spec changes, any other exception is retried with
     * backoff. An apply that outlasts {@code agent.apply.timeout.ms} counts as a transient failure; the key's next
     * correction does not wait for it, and its late outcome is ignored, so an apply should stop when interrupted.
     */
    void apply(Correction correction) throws Exception;
}
