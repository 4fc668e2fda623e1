package io.statesync.rest.store;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.rest.ApiError;
import io.statesync.topology.ResourceKey;

/**
 * How the {@link ResourceStore} reaches the pipeline: it hands writes to admission, which decides them in the key's
 * owning task, and reads a key's stored object through its owner when the instance's own view has not shown it yet.
 * The server implements it over the admission producer and reply consumer and over the key router's forwarding.
 */
public interface AdmissionTransport {

    /**
     * One write to admit: a desired state, or with {@code desired == null} a delete tombstone, whose precondition
     * ({@code deleteExpectedVersion}) and propagation policy (null: Background) travel with it.
     */
    record Submission(String key, DesiredState desired, String requestId, String deleteExpectedVersion,
                      String propagationPolicy) {
        public Submission(String key, DesiredState desired, String requestId, String deleteExpectedVersion) {
            this(key, desired, requestId, deleteExpectedVersion, null);
        }
    }

    /** An admission answer, or the error that stood in for one (a timeout, a failed send). */
    record Answer(ReconcileEvent event, ApiError error) {
    }

    /**
     * Submits every write at once and awaits their answers; the answers come in the submissions' order.
     *
     * @throws ApiError when no write can be submitted at all (503 while the transport is not ready)
     */
    List<Answer> submitAll(List<Submission> writes);

    /**
     * Submits a write to the key's status subresource, a status-only observed report with its precondition (null: none),
     * and awaits its answer as a desired write's.
     */
    Answer submitStatus(String key, ObservedState report, String requestId, String expectedVersion);

    /**
     * The key's stored object as JSON, from its owner (this instance or another), with the caller's
     * {@code authorization}; an {@link ApiError} when the owner cannot answer or the key does not exist.
     */
    JsonNode readFromOwner(ResourceKey key, String authorization);
}
