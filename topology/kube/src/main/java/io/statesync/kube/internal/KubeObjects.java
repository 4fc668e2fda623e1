package io.statesync.kube.internal;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.rest.RestContext;
import io.statesync.view.StoredResource;

/**
 * A resource as the Kubernetes API shows it: the server's JSON form with Kubernetes' conventions applied (times in
 * RFC 3339 to the second, empty metadata maps and lists left out, no null fields in metadata and conditions) and
 * the Kubernetes API's resourceVersion token in place of the per-key version.
 */
public final class KubeObjects {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private KubeObjects() {
    }

    /** The object of {@code r} with {@code resourceVersion} as its metadata.resourceVersion, as {@code served} shows it. */
    public static ObjectNode of(KindCatalog.Served served, StoredResource r, String resourceVersion) {
        return of(served, RestContext.toJson(r.resource()), resourceVersion);
    }

    /**
     * The Kubernetes form of the server's JSON form of an object, in the served version: its {@code apiVersion}, its
     * kind without the group the server's form qualifies it with, and no namespace when cluster-scoped. Since every
     * served version converts with {@code None}, only {@code apiVersion} differs between versions.
     */
    public static ObjectNode of(KindCatalog.Served served, ObjectNode n, String resourceVersion) {
        ObjectNode out = of(n, resourceVersion);
        out.put("apiVersion", served.apiVersion());
        out.put("kind", served.kind().kindName());
        if (!served.kind().namespaced()) {
            ((ObjectNode) out.get("metadata")).remove("namespace");
        }
        if (KindCatalog.CRD_KIND.equals(served.kind().kind())) {
            CustomResourceDefinitions.putStatus(out);
        }
        if (KindCatalog.NAMESPACE_KIND.equals(served.kind().kind())) {
            namespace(out);
        }
        return out;
    }

    /**
     * A namespace as Kubernetes shows it: the finalizer that holds it while it is emptied in {@code spec.finalizers}
     * (where the server keeps it with the other finalizers, in metadata), and {@code status.phase} Active, or
     * Terminating once it is being deleted, in place of the sync and health of the objects statesync reconciles.
     */
    private static void namespace(ObjectNode out) {
        ObjectNode meta = (ObjectNode) out.get("metadata");
        ObjectNode spec = JSON.objectNode();
        if (meta.get("finalizers") instanceof ArrayNode finalizers) {
            for (Iterator<JsonNode> it = finalizers.iterator(); it.hasNext(); ) {
                if (io.statesync.topology.ApiOnlyKinds.NAMESPACE_FINALIZER.equals(it.next().asText())) {
                    it.remove();
                    spec.withArray("finalizers").add(io.statesync.topology.ApiOnlyKinds.NAMESPACE_FINALIZER);
                }
            }
            dropEmpty(meta, "finalizers");
        }
        out.set("spec", spec);
        out.putObject("status").put("phase", meta.has("deletionTimestamp") ? "Terminating" : "Active");
    }

    /** The Kubernetes form of the server's JSON form of an object; changes and returns {@code n}. */
    private static ObjectNode of(ObjectNode n, String resourceVersion) {
        n.remove("dryRun");
        ObjectNode meta = (ObjectNode) n.get("metadata");
        meta.put("resourceVersion", resourceVersion);
        seconds(meta, "creationTimestamp");
        seconds(meta, "deletionTimestamp");
        dropEmpty(meta, "labels");
        dropEmpty(meta, "annotations");
        dropEmpty(meta, "finalizers");
        dropEmpty(meta, "ownerReferences");
        dropNulls(meta);
        JsonNode status = n.get("status");
        if (status instanceof ObjectNode s) {
            status(s);
        }
        return n;
    }

    private static void status(ObjectNode s) {
        JsonNode conditions = s.get("conditions");
        if (conditions instanceof ArrayNode list) {
            for (JsonNode c : list) {
                if (c instanceof ObjectNode cn) {
                    seconds(cn, "lastTransitionTime");
                    dropNulls(cn);
                }
            }
        }
        for (String field : new String[] {"convergedAt", "lastObservedAt"}) {
            seconds(s, field);
        }
        if (s.get("health") instanceof ObjectNode h) {
            seconds(h, "lastTransitionTime");
        }
    }

    /** Kubernetes' metav1.Time: RFC 3339 to the second. */
    static void seconds(ObjectNode n, String field) {
        JsonNode t = n.get(field);
        if (t != null && t.isTextual()) {
            n.put(field, rfc3339(Instant.parse(t.asText())));
        }
    }

    public static String rfc3339(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static void dropEmpty(ObjectNode n, String field) {
        JsonNode v = n.get(field);
        if (v != null && (v.isNull() || v.isContainerNode() && v.isEmpty())) {
            n.remove(field);
        }
    }

    private static void dropNulls(ObjectNode n) {
        for (Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator(); it.hasNext(); ) {
            if (it.next().getValue().isNull()) {
                it.remove();
            }
        }
    }

    /** A Kubernetes list: the kind's list kind with its resourceVersion and continue token. */
    public static ObjectNode list(KindCatalog.Served served, String resourceVersion, String continueToken) {
        ObjectNode out = JSON.objectNode().put("apiVersion", served.apiVersion()).put("kind", served.kind().listKind());
        ObjectNode meta = out.putObject("metadata").put("resourceVersion", resourceVersion);
        if (continueToken != null) {
            meta.put("continue", continueToken);
        }
        out.putArray("items");
        return out;
    }
}
