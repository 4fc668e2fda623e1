package io.statesync.rest.store.internal;

import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.Differ;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.rest.store.StoredObjects;
import io.statesync.rest.store.WriteResult;
import io.statesync.schemas.Values;
import io.statesync.topology.OutputLimits;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.WriteAdmission;

/**
 * The dry runs of the store: the admission rules of {@link WriteAdmission}, the same the owning task runs, against
 * the newest committed copy, and the output bound the task would apply; nothing is submitted or written.
 */
public final class DryRuns {

    private final AppConfig config;
    private final StoredObjects objects;
    private final Function<String, ReconcilePolicy> policies;
    private final WriteAdmission.Limits limits;

    public DryRuns(AppConfig config, StoredObjects objects, Function<String, ReconcilePolicy> policies) {
        this.config = config;
        this.objects = objects;
        this.policies = policies;
        this.limits = WriteAdmission.Limits.of(config);
    }

    /** The object as the write would store it, with a summary of the outcome and the spec's changes. */
    public WriteResult write(ResourceKey key, DesiredState desired) throws InterruptedException {
        StoredObjects.Copy copy = objects.committed(key);
        Resource current = copy.resource();
        ReconcilePolicy policy = policies.apply(key.kind());
        WriteAdmission.Decision d = WriteAdmission.decide(current, desired, policy, limits);
        if (d instanceof WriteAdmission.Refused r) {
            throw Refusals.of(r, versionOf(current));
        }
        WriteAdmission.Accepted accepted = (WriteAdmission.Accepted) d;
        WriteAdmission.Refused tooLarge = OutputLimits.refusal(config, accepted.effective(), null);
        if (tooLarge != null) {
            throw Refusals.of(tooLarge, versionOf(current));
        }
        Resource after = WriteAdmission.admitted(current, accepted, System.currentTimeMillis());
        ObjectNode out = ResourceJson.toJson(after);
        ObjectNode summary = out.putObject("dryRun").put("outcome", accepted.outcome().getClass().getSimpleName())
            .put("generation", accepted.outcome().generation());
        if (copy.stale()) {
            // The view did not catch up in time: the outcome was decided against a copy that may be older than the newest.
            summary.put("stale", true);
        }
        specChanges(summary.putArray("specChanges"), after, current);
        return new WriteResult(current == null ? 201 : 200, WriteResult.DRY_RUN, null, out, copy.stale());
    }

    /** The object a delete would remove, after the checks the delete would pass. */
    public WriteResult delete(ResourceKey key, String expectedResourceVersion) throws InterruptedException {
        Resource current = objects.committed(key).resource();
        WriteAdmission.Refused refused = WriteAdmission.decideDelete(current, key.toString(), expectedResourceVersion);
        if (refused != null) {
            throw Refusals.of(refused, versionOf(current));
        }
        ObjectNode object = ResourceJson.toJson(current);
        return new WriteResult(200, WriteResult.DRY_RUN, object.path("metadata").path("resourceVersion").asText(), object,
            false);
    }

    /** Every field of the spec the write changes, with its new and old value, whatever the kind's policy ignores. */
    private static void specChanges(ArrayNode into, Resource after, Resource current) {
        List<FieldDiff> changes = Differ.diff(Values.toJava(after.getSpec()),
            current == null ? null : Values.toJava(current.getSpec()), ReconcilePolicy.defaults());
        for (FieldDiff c : changes) {
            ObjectNode n = into.addObject().put("path", c.path().format()).put("kind", c.kind().name());
            n.set("new", Values.toJson(Values.fromJava(c.desired())));
            n.set("old", Values.toJson(Values.fromJava(c.observed())));
        }
    }

    private static String versionOf(Resource current) {
        return current == null ? "" : current.getMetadata().getResourceVersion();
    }
}
