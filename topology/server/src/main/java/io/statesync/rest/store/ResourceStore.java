package io.statesync.rest.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ObservedState;
import io.statesync.avro.PatchType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.reconciler.Propagation;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.internal.DryRuns;
import io.statesync.rest.store.internal.Refusals;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.StatusSubresource;
import io.statesync.topology.WriteAdmission;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.rest.internal.ResourceVersions;

/**
 * Creates, updates, patches and deletes resources, and dry-runs each, as the Kubernetes apiserver's generic registry
 * store does over its storage: a write goes to admission through the {@link AdmissionTransport}, which decides it
 * serialized per key in the owning task, and its answer is mapped to a status (404, 409, 422, 413, 503) and read
 * back at the written version. A dry run applies the same admission rules to the newest committed copy and submits
 * nothing. The HTTP APIs are adapters over this class; none of them submits or reads back on its own.
 */
public final class ResourceStore {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** How long a write's answer waits for the view to show the written version before asking the owner. */
    static final Duration READ_BACK_WAIT = Duration.ofSeconds(2);
    /** How many times a status write without a precondition is applied to a newer copy after losing a race. */
    static final int STATUS_ATTEMPTS = 5;

    private final AdmissionTransport transport;
    private final StoredObjects objects;
    private final BiConsumer<String, String> answered;
    private final DryRuns dryRuns;

    /**
     * @param strategies the kind's strategy, from its policy as admission would use it (an {@link ApiError} 503 when
     *                   the policy does not decode)
     * @param answered   told of every answered write's key and version (empty when deleted), before the answer returns
     */
    public ResourceStore(AdmissionTransport transport, StoredObjects objects, Function<String, ResourceStrategy> strategies,
                         BiConsumer<String, String> answered) {
        this.transport = transport;
        this.objects = objects;
        this.answered = answered;
        this.dryRuns = new DryRuns(objects, strategies);
    }

    /**
     * Writes {@code desired} (a create, a replace, or a patch it carries) through admission, awaited, and answers the
     * object as stored, read back with the caller's {@code authorization}: 201 for a create, 200 otherwise.
     */
    public WriteResult write(ResourceKey key, DesiredState desired, String requestId, String authorization)
        throws InterruptedException {
        ReconcileEvent e = answer(key, transport.submitAll(List.of(
            new AdmissionTransport.Submission(key.toString(), desired, requestId, null))).get(0));
        return new WriteResult(status(e), e.getReason(), e.getResourceVersion(), readBack(authorization, key, e), false);
    }

    /**
     * A write to a resource's status subresource: its patch type (null for a PUT, whose body holds the whole status),
     * its body, the client's precondition and uid (null: none), and its writer, who is the report's reporter.
     */
    public record StatusWrite(PatchType type, JsonNode body, String expectedVersion, String uid, String fieldManager) {
    }

    /** A status write's result, and a warning for each of statesync's own fields or conditions it wrote and lost. */
    public record StatusResult(WriteResult result, List<String> warnings) {
    }

    /**
     * Writes a resource's status as Kubernetes' status subresource does, as an observation: the write applies to the
     * status its client sees (the newest committed copy), becomes a status-only report for admission, which refuses
     * it for a missing resource (404) or a precondition that no longer holds (409), and answers with the object as
     * stored. Without a precondition of the client's, the copy's version is the precondition and a write that loses
     * a race is applied again to the newer copy, as the apiserver retries its updates.
     */
    public StatusResult writeStatus(ResourceKey key, StatusWrite w, WriteAdmission.Limits limits, String requestId,
                                    String authorization) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            Resource current = objects.committed(key).resource();
            if (current == null) {
                throw ApiError.notFound(key + " does not exist");
            }
            StatusSubresource.Outcome o = StatusSubresource.report(ResourceJson.toJson(current), w.type(), w.body(),
                current.getStatus().getReportedConditions(), Instant.now(), limits);
            if (o.refused() != null) {
                throw Refusals.of(o.refused(), current.getMetadata().getResourceVersion());
            }
            String expected = w.expectedVersion() != null ? w.expectedVersion() : current.getMetadata().getResourceVersion();
            AdmissionTransport.Answer a = transport.submitStatus(key.toString(), report(key, w, o.report(), current),
                requestId, expected);
            if (w.expectedVersion() == null && attempt < STATUS_ATTEMPTS && a.event() != null
                && a.event().getType() == EventType.Conflict) {
                continue;
            }
            ReconcileEvent e = answer(key, a);
            return new StatusResult(new WriteResult(200, e.getReason(), e.getResourceVersion(), readBack(authorization, key, e),
                false), o.report().warnings());
        }
    }

    /**
     * The status-only report of a write. Its time is the server's clock, but never before the report the copy
     * shows, so that an agent's clock ahead of this one does not make every status write stale.
     */
    private static ObservedState report(ResourceKey key, StatusWrite w, StatusSubresource.Report r, Resource current) {
        Instant at = Instant.now();
        Instant last = current.getStatus().getLastObservedAt();
        if (last != null && !at.isAfter(last)) {
            at = last.plusMillis(1);
        }
        return ObservedState.newBuilder().setKind(key.kind()).setNamespace(key.namespace()).setName(key.name())
            .setUid(w.uid()).setObservedGeneration(r.observedGeneration()).setStatus(r.status())
            .setConditions(r.conditions()).setObservedAt(at).setReporter(w.fieldManager() == null ? "" : w.fieldManager())
            .build();
    }

    /** What {@link #write} would store and answer, decided against the newest committed copy; nothing is submitted. */
    public WriteResult dryRunWrite(ResourceKey key, DesiredState desired) throws InterruptedException {
        return dryRuns.write(key, desired);
    }

    /**
     * Deletes through admission with an optional precondition and what it does to the dependents; the answer carries
     * the version admission answered with and no object (a deleted object is not read back).
     */
    public WriteResult delete(ResourceKey key, String expectedResourceVersion, Propagation propagation, String requestId) {
        ReconcileEvent e = answer(key, transport.submitAll(List.of(new AdmissionTransport.Submission(key.toString(), null,
            requestId, expectedResourceVersion, propagation.name()))).get(0));
        return new WriteResult(200, e.getReason(), e.getResourceVersion(), null, false);
    }

    /** What {@link #delete} would do: the object as it stands, or the refusal the delete would get. */
    public WriteResult dryRunDelete(ResourceKey key, String expectedResourceVersion) throws InterruptedException {
        return dryRuns.delete(key, expectedResourceVersion);
    }

    /** One write of {@link #writeAll}: its result, or the error that refused it. */
    public record Outcome(WriteResult result, ApiError refused) {
    }

    /**
     * Submits many writes together (they share batches and transactions) and answers each on its own, in order: a
     * refusal of one is its outcome and does not stop the others. The object of each result is its identity, uid and
     * version, not read back.
     */
    public List<Outcome> writeAll(List<AdmissionTransport.Submission> writes) {
        List<AdmissionTransport.Answer> answers = writes.isEmpty() ? List.of() : transport.submitAll(writes);
        List<Outcome> out = new ArrayList<>(answers.size());
        for (int i = 0; i < answers.size(); i++) {
            ResourceKey key = ResourceKey.parse(writes.get(i).key());
            try {
                ReconcileEvent e = answer(key, answers.get(i));
                out.add(new Outcome(new WriteResult(status(e), e.getReason(), e.getResourceVersion(), identity(key, e),
                    false), null));
            } catch (ApiError refused) {
                out.add(new Outcome(null, refused));
            }
        }
        return out;
    }

    /** The event of an answer that admitted its write; a refusal or a missing answer is thrown as its HTTP error. */
    private ReconcileEvent answer(ResourceKey key, AdmissionTransport.Answer a) {
        if (a.error() != null) {
            throw a.error();
        }
        ReconcileEvent e = a.event();
        Refusals.throwIfRefused(e);
        answered.accept(key.toString(), e.getResourceVersion());
        return e;
    }

    private static int status(ReconcileEvent e) {
        return "Created".equals(e.getReason()) ? 201 : 200;
    }

    /**
     * The object as stored after the write (or newer): from the view, which reads the write's Resource moments after
     * its answer, since both are in one transaction; through the key's owner when the view is slow; and when neither
     * answers, the identity and version admission answered with.
     */
    private JsonNode readBack(String authorization, ResourceKey key, ReconcileEvent e) throws InterruptedException {
        long version = ResourceVersions.parse(e.getResourceVersion());
        if (version > 0) {
            Resource r = objects.atVersion(key, version, READ_BACK_WAIT);
            if (r != null) {
                return ResourceJson.toJson(r);
            }
        }
        try {
            return transport.readFromOwner(key, authorization);
        } catch (ApiError unavailable) {
            return identity(key, e);
        }
    }

    /** The identity of a written object with the uid, version and generation admission answered with. */
    private static ObjectNode identity(ResourceKey key, ReconcileEvent e) {
        ObjectNode n = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", key.kind());
        n.putObject("metadata").put("name", key.name()).put("namespace", key.namespace()).put("uid", e.getUid())
            .put("resourceVersion", e.getResourceVersion()).put("generation", e.getGeneration());
        return n;
    }
}
