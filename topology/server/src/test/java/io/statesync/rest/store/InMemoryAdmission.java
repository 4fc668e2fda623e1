package io.statesync.rest.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.rest.ApiError;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.WriteAdmission;

/**
 * A transport and view without a broker: admission decided here with the same {@link WriteAdmission} rules the owning
 * task runs, one version counter, and a view that can be told to lag behind admission or to stop answering.
 */
final class InMemoryAdmission implements AdmissionTransport, StoredObjects {

    final List<Submission> submitted = new ArrayList<>();
    final List<String> ownerReads = new ArrayList<>();
    final List<Long> readBackVersions = new ArrayList<>();
    /** What admission holds, by key. */
    final Map<String, Resource> stored = new HashMap<>();
    /** What the view shows, by key; equal to {@link #stored} unless the view lags. */
    final Map<String, Resource> viewed = new HashMap<>();
    boolean viewLags;
    boolean viewStale;
    boolean ownerUnreachable;
    ApiError answerError;
    WriteAdmission.Limits limits = WriteAdmission.Limits.DEFAULTS;
    private long version = 10;

    @Override
    public List<Answer> submitAll(List<Submission> writes) {
        List<Answer> out = new ArrayList<>();
        for (Submission s : writes) {
            submitted.add(s);
            out.add(answerError != null ? new Answer(null, answerError) : new Answer(admit(s), null));
        }
        return out;
    }

    final List<io.statesync.avro.ObservedState> statusReports = new ArrayList<>();

    /**
     * A status write as the task admits it, without its reconcile: 404 for a missing object, 409 for another version,
     * otherwise the report's status shown on a new version.
     */
    @Override
    public Answer submitStatus(String key, io.statesync.avro.ObservedState report, String requestId, String expectedVersion) {
        statusReports.add(report);
        Resource current = stored.get(key);
        if (current == null) {
            return new Answer(event(EventType.Invalid, WriteAdmission.NOT_FOUND, key + " does not exist", null, 0), null);
        }
        if (expectedVersion != null && !expectedVersion.equals(current.getMetadata().getResourceVersion())) {
            return new Answer(event(EventType.Conflict, WriteAdmission.RESOURCE_VERSION_MISMATCH, "modified", current, 0),
                null);
        }
        Resource after = Resource.newBuilder(current).build();
        after.getStatus().setReported(report.getStatus());
        after.getStatus().setReportedConditions(report.getConditions());
        after.getMetadata().setResourceVersion(String.valueOf(++version));
        stored.put(key, after);
        publish(key, after);
        return new Answer(event(EventType.Accepted, "StatusReported", "", after, after.getMetadata().getGeneration()), null);
    }

    private ReconcileEvent admit(Submission s) {
        Resource current = stored.get(s.key());
        if (s.desired() == null) {
            WriteAdmission.Refused r = WriteAdmission.decideDelete(current, s.key(), s.deleteExpectedVersion());
            if (r != null) {
                return refused(r, current);
            }
            stored.remove(s.key());
            publish(s.key(), null);
            return event(EventType.Accepted, "Deleted", "", current, 0);
        }
        WriteAdmission.Decision d = WriteAdmission.decide(current, s.desired(), ReconcilePolicy.defaults(), limits);
        if (d instanceof WriteAdmission.Refused r) {
            return refused(r, current);
        }
        WriteAdmission.Accepted a = (WriteAdmission.Accepted) d;
        Resource after = WriteAdmission.admitted(current, a, 0);
        after.getMetadata().setResourceVersion(String.valueOf(++version));
        stored.put(s.key(), after);
        publish(s.key(), after);
        return event(EventType.Accepted, current == null ? "Created" : "SpecChanged", "generation", after,
            a.outcome().generation());
    }

    private void publish(String key, Resource r) {
        if (!viewLags) {
            if (r == null) {
                viewed.remove(key);
            } else {
                viewed.put(key, r);
            }
        }
    }

    private static ReconcileEvent refused(WriteAdmission.Refused r, Resource current) {
        return event(r.type(), r.reason(), r.message(), current, 0);
    }

    private static ReconcileEvent event(EventType type, String reason, String message, Resource r, long generation) {
        return ReconcileEvent.newBuilder().setEventId("e").setType(type).setReason(reason).setMessage(message)
            .setUid(r == null ? null : r.getMetadata().getUid())
            .setResourceVersion(r == null ? "" : r.getMetadata().getResourceVersion()).setGeneration(generation)
            .setTimestamp(Instant.EPOCH).build();
    }

    @Override
    public JsonNode readFromOwner(ResourceKey key, String authorization) {
        ownerReads.add(authorization);
        if (ownerUnreachable) {
            throw ApiError.unavailable("the owner is unreachable", 1);
        }
        Resource r = stored.get(key.toString());
        if (r == null) {
            throw ApiError.notFound(key + " does not exist");
        }
        return ResourceJson.toJson(r);
    }

    @Override
    public Copy committed(ResourceKey key) {
        return new Copy(viewed.get(key.toString()), viewStale);
    }

    @Override
    public Resource atVersion(ResourceKey key, long version, Duration wait) {
        readBackVersions.add(version);
        Resource r = viewed.get(key.toString());
        return r != null && Long.parseLong(r.getMetadata().getResourceVersion()) >= version ? r : null;
    }
}
