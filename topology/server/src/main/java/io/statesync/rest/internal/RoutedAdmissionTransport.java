package io.statesync.rest.internal;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.avro.ObservedState;
import io.statesync.avro.store.ReconcileState;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.AdmissionTransport;
import io.statesync.topology.ResourceKey;

/**
 * The store's transport on a running instance: writes go through the admission producer and reply consumer, and a
 * read-back the view cannot answer goes to the key's owner through the key router, with the caller's role.
 */
public final class RoutedAdmissionTransport implements AdmissionTransport {

    private final AdmissionClient admission;
    private final KeyRouter router;

    public RoutedAdmissionTransport(AdmissionClient admission, KeyRouter router) {
        this.admission = admission;
        this.router = router;
    }

    @Override
    public List<Answer> submitAll(List<Submission> writes) {
        return admission.submitAll(writes);
    }

    @Override
    public Answer submitStatus(String key, ObservedState report, String requestId, String expectedVersion) {
        return admission.submitStatus(key, report, requestId, expectedVersion);
    }

    @Override
    public JsonNode readFromOwner(ResourceKey key, String authorization) {
        String path = "/api/v1/resources/" + key.kind() + "/" + Requests.namespaceSegment(key.namespace()) + "/"
            + key.name();
        KeyRouter.Outcome o = router.route(key.toString(), path, authorization, false);
        if (o instanceof KeyRouter.Forwarded f) {
            if (f.status() == 200) {
                return BodyReader.parse(f.body());
            }
            throw new ApiError(f.status(), f.status() == 404 ? "NotFound" : "Upstream", f.bodyText());
        }
        ReconcileState st = ((KeyRouter.Local) o).state();
        if (st == null || st.getResource() == null) {
            throw ApiError.notFound(key + " does not exist");
        }
        return ResourceJson.toJson(st.getResource());
    }
}
