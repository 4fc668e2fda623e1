package io.statesync.rest.store.internal;

import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.rest.store.ResourceStrategy;
import io.statesync.rest.store.StoredObjects;
import io.statesync.rest.store.WriteResult;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.WriteAdmission;

/**
 * The dry runs of the store: the kind's {@link ResourceStrategy} in its order against the newest committed copy, the
 * same admission rules the owning task runs and the output bound it applies; nothing is submitted or written.
 */
public final class DryRuns {

    private final StoredObjects objects;
    private final Function<String, ResourceStrategy> strategies;

    public DryRuns(StoredObjects objects, Function<String, ResourceStrategy> strategies) {
        this.objects = objects;
        this.strategies = strategies;
    }

    /** The object as the write would store it, with a summary of the outcome and the spec's changes. */
    public WriteResult write(ResourceKey key, DesiredState desired) throws InterruptedException {
        StoredObjects.Copy copy = objects.committed(key);
        Resource current = copy.resource();
        ResourceStrategy strategy = strategies.apply(key.kind());
        WriteAdmission.Decision d = strategy.validate(current, desired);
        if (d instanceof WriteAdmission.Refused r) {
            throw Refusals.of(r, versionOf(current));
        }
        WriteAdmission.Accepted accepted = (WriteAdmission.Accepted) d;
        WriteAdmission.Refused tooLarge = strategy.checkOutputs(accepted);
        if (tooLarge != null) {
            throw Refusals.of(tooLarge, versionOf(current));
        }
        Resource after = strategy.prepare(current, accepted, System.currentTimeMillis());
        ObjectNode out = strategy.canonicalize(after, current, accepted);
        if (copy.stale()) {
            // The view did not catch up in time: the outcome was decided against a copy that may be older than the newest.
            ((ObjectNode) out.get("dryRun")).put("stale", true);
        }
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

    private static String versionOf(Resource current) {
        return current == null ? "" : current.getMetadata().getResourceVersion();
    }
}
