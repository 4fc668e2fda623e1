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

    /** The object of {@code r} with {@code resourceVersion} as its metadata.resourceVersion. */
    public static ObjectNode of(StoredResource r, String resourceVersion) {
        return of(RestContext.toJson(r.resource()), resourceVersion);
    }

    /** The Kubernetes form of the server's JSON form of an object; changes and returns {@code n}. */
    public static ObjectNode of(ObjectNode n, String resourceVersion) {
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

    /** A Kubernetes list: {@code <Kind>List} with its resourceVersion and continue token. */
    public static ObjectNode list(String kind, String resourceVersion, String continueToken) {
        ObjectNode out = JSON.objectNode().put("apiVersion", KubePaths.GROUP_VERSION).put("kind", kind + "List");
        ObjectNode meta = out.putObject("metadata").put("resourceVersion", resourceVersion);
        if (continueToken != null) {
            meta.put("continue", continueToken);
        }
        out.putArray("items");
        return out;
    }
}
