package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import io.statesync.reconciler.Propagation;
import io.statesync.rest.ApiError;
import io.statesync.rest.RestContext;
import io.statesync.topology.ResourceKey;
import io.statesync.view.StoredResource;

/**
 * A delete's options, from the {@code DeleteOptions} body and the query as Kubernetes takes them: preconditions on
 * uid and resourceVersion, {@code propagationPolicy}, {@code dryRun}.
 *
 * <p>The propagation policy goes with the delete to admission, and the garbage collector acts on it in the engine,
 * as for the server's own DELETE.
 */
record DeleteOptions(String uid, String resourceVersion, Propagation propagation, boolean dryRun) {

    static DeleteOptions of(Context ctx, JsonNode body) {
        JsonNode pre = body.path("preconditions");
        String policy = body.path("propagationPolicy").asText(ctx.queryParam("propagationPolicy"));
        List<String> inBody = new ArrayList<>();
        body.path("dryRun").forEach(v -> inBody.add(v.asText()));
        boolean dryRun = KubeRequests.dryRun(ctx) | KubeRequests.dryRun(inBody);
        return new DeleteOptions(pre.path("uid").asText(null), pre.path("resourceVersion").asText(null),
            propagation(policy), dryRun);
    }

    private static Propagation propagation(String policy) {
        // Kubernetes matches the policy's name exactly.
        return Propagation.parse(policy).filter(p -> policy == null || policy.isEmpty() || p.name().equals(policy))
            .orElseThrow(() -> new ApiError(422, "Invalid", "propagationPolicy: Unsupported value: \"" + policy
                + "\": supported values: \"Orphan\", \"Background\", \"Foreground\""));
    }

    /** The object's uid, after checking the uid precondition: 404 when there is no object, 409 when it is another one. */
    String checkUid(StoredResource current, KindCatalog.Kind kind, String name) {
        if (current == null) {
            throw ResourceHandlers.notFound(kind, name);
        }
        String actual = current.resource().getMetadata().getUid();
        if (uid != null && !uid.isEmpty() && !uid.equals(actual)) {
            throw ApiError.conflict("Precondition failed: UID in precondition: " + uid + ", UID in object meta: " + actual,
                current.resourceVersion());
        }
        return actual;
    }

    /** Submits the delete with its resourceVersion precondition (or dry-runs it). */
    void delete(RestContext context, KindCatalog.Kind kind, ResourceKey key, String requestId) throws InterruptedException {
        try {
            String expected = KubeResourceVersion.precondition(resourceVersion);
            if (dryRun) {
                context.store().dryRunDelete(key, expected);
            } else {
                context.store().delete(key, expected, propagation, requestId);
            }
        } catch (ApiError e) {
            throw ResourceHandlers.kubeMessage(e, kind, key.name());
        }
    }
}
