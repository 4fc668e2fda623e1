package io.statesync.rest.internal;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.Resource;
import io.statesync.rest.ApiError;
import io.statesync.topology.ResourceKey;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;

/**
 * {@code GET .../{kind}/{namespace}/{name}/dependents}: the resources in the owner's namespace whose
 * {@code metadata.ownerReferences} name it, each with its reference, sync status and health. Read from this
 * instance's resource view, so any instance answers; it decodes the namespace's resources, as a Kubernetes client
 * lists them to find dependents.
 */
public final class DependentsApi {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final int PAGE = 1_000;

    private final ResourceView view;

    public DependentsApi(ResourceView view) {
        this.view = view;
    }

    public void list(Context ctx) {
        if (!view.ready()) {
            throw ApiError.unavailable("the resource view is still loading", 1);
        }
        ResourceKey key = Requests.key(ctx);
        StoredResource owner = view.get(key.toString());
        String ownerUid = owner == null ? null : owner.resource().getMetadata().getUid();
        ObjectNode out = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", "DependentList");
        out.putObject("owner").put("kind", key.kind()).put("namespace", key.namespace()).put("name", key.name())
            .put("uid", ownerUid);
        ArrayNode items = out.putArray("items");
        for (Resource r : dependents(key)) {
            items.add(item(r, key, ownerUid));
        }
        ctx.json(out);
    }

    /** The namespace's resources that name {@code owner} (by kind and name; the item says whether the uid matches). */
    private List<Resource> dependents(ResourceKey owner) {
        List<Resource> out = new ArrayList<>();
        String after = null;
        do {
            ResourceView.Page page = view.list(r -> r.isInNamespace(owner.namespace()), after, PAGE);
            for (StoredResource s : page.items()) {
                Resource r = s.resource();
                if (ref(r.getMetadata(), owner) != null) {
                    out.add(r);
                }
            }
            after = page.nextKey();
        } while (after != null);
        return out;
    }

    private static ObjectNode item(Resource r, ResourceKey owner, String ownerUid) {
        ObjectMeta m = r.getMetadata();
        OwnerReference ref = ref(m, owner);
        ObjectNode n = JSON.objectNode().put("kind", m.getKind()).put("namespace", m.getNamespace()).put("name", m.getName())
            .put("uid", m.getUid()).put("controller", ref.getController()).put("blockOwnerDeletion", ref.getBlockOwnerDeletion())
            .put("ownerUid", ref.getUid()).put("ownerUidMatches", ref.getUid().equals(ownerUid))
            .put("syncStatus", r.getStatus().getSyncStatus().name());
        n.set("health", ResourceJson.health(r.getStatus().getHealth()));
        n.put("deleting", m.getDeletionTimestamp() != null);
        return n;
    }

    private static OwnerReference ref(ObjectMeta m, ResourceKey owner) {
        for (OwnerReference ref : m.getOwnerReferences()) {
            if (ref.getKind().equals(owner.kind()) && ref.getName().equals(owner.name())) {
                return ref;
            }
        }
        return null;
    }
}
