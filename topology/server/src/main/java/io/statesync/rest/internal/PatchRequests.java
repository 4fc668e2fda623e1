package io.statesync.rest.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.PatchType;
import io.statesync.avro.WritePatch;
import io.statesync.rest.ApiError;
import io.statesync.topology.ResourceKey;

/** The desired state that carries a server-side patch to admission, which applies it to the stored object. */
public final class PatchRequests {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private PatchRequests() {
    }

    /**
     * A merge patch's (or a strategic merge patch's) identity is checked against the key and its {@code metadata.resourceVersion} becomes the
     * precondition unless {@code expected} is given; a JSON patch must be an array of operations.
     */
    public static DesiredState of(ResourceKey key, PatchType type, JsonNode patch, String expected) {
        if (type == PatchType.MergePatch || type == PatchType.StrategicMergePatch) {
            if (!patch.isObject()) {
                throw ApiError.badRequest("a merge patch must be a JSON object");
            }
            expected = expected != null ? expected : takeIdentity(key, (ObjectNode) patch);
        } else if (!patch.isArray()) {
            throw ApiError.badRequest("a JSON patch must be an array of operations");
        }
        return carrying(key, type, patch, expected);
    }

    /**
     * A server-side apply: the configuration's identity is checked against the key, its resourceVersion becomes the
     * precondition unless {@code expected} is given, and what reaches admission is the part a manager may own,
     * {@code {metadata: {labels, annotations, finalizers, ownerReferences}, spec}}; the rest of metadata is the
     * server's, and status is the agents', so both are dropped as Kubernetes drops them. An apply may not send
     * managedFields.
     */
    public static DesiredState apply(ResourceKey key, JsonNode config, String expected, String fieldManager, boolean force) {
        if (!config.isObject()) {
            throw ApiError.badRequest("an applied configuration must be an object");
        }
        ObjectNode body = (ObjectNode) config;
        if (body.path("metadata").has("managedFields")) {
            throw ApiError.badRequest("metadata.managedFields must be nil");
        }
        ResourceJson.desired(key, identityOnly(body), null);
        if (body.hasNonNull("apiVersion") && !ResourceJson.API_VERSION.equals(body.get("apiVersion").asText())) {
            throw ApiError.badRequest("apiVersion must be " + ResourceJson.API_VERSION);
        }
        String version = expected != null ? expected : takeIdentity(key, body);
        ObjectNode owned = JSON.objectNode();
        if (body.get("metadata") instanceof ObjectNode meta) {
            ObjectNode m = owned.putObject("metadata");
            for (String f : new String[] {"labels", "annotations", "finalizers", "ownerReferences"}) {
                if (meta.has(f)) {
                    m.set(f, meta.get(f));
                }
            }
        }
        if (body.has("spec")) {
            owned.set("spec", body.get("spec"));
        }
        DesiredState d = carrying(key, PatchType.Apply, owned, version);
        d.setFieldManager(fieldManager);
        d.setForce(force);
        return d;
    }

    /** The desired state of {@code key} that carries {@code patch} as it is, with the precondition {@code expected}. */
    public static DesiredState carrying(ResourceKey key, PatchType type, JsonNode patch, String expected) {
        return DesiredState.newBuilder().setKind(key.kind()).setNamespace(key.namespace()).setName(key.name())
            .setExpectedResourceVersion(expected).setPatch(new WritePatch(type, patch.toString())).build();
    }

    /**
     * Removes the identity a merge patch may repeat (kind, apiVersion, metadata name, namespace, resourceVersion),
     * checking it matches the path, and returns its resourceVersion as the precondition.
     */
    static String takeIdentity(ResourceKey key, ObjectNode patch) {
        ResourceJson.desired(key, identityOnly(patch), null);
        patch.remove("kind");
        patch.remove("apiVersion");
        JsonNode meta = patch.get("metadata");
        if (meta == null || !meta.isObject()) {
            return null;
        }
        ObjectNode m = (ObjectNode) meta;
        m.remove("name");
        m.remove("namespace");
        JsonNode rv = m.remove("resourceVersion");
        return rv == null || rv.isNull() || rv.asText().isEmpty() ? null : rv.asText();
    }

    private static ObjectNode identityOnly(ObjectNode patch) {
        ObjectNode n = JSON.objectNode();
        n.set("kind", patch.get("kind"));
        n.set("apiVersion", patch.get("apiVersion"));
        JsonNode meta = patch.get("metadata");
        if (meta != null && meta.isObject()) {
            n.putObject("metadata").set("name", meta.get("name"));
            ((ObjectNode) n.get("metadata")).set("namespace", meta.get("namespace"));
        }
        return n;
    }
}
