package io.statesync.rest.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.Action;
import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.DesiredState;
import io.statesync.avro.FieldDiff;
import io.statesync.avro.FieldOp;
import io.statesync.avro.Health;
import io.statesync.avro.HealthStatus;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.Value;
import io.statesync.avro.store.ReconcileState;
import io.statesync.reconciler.FieldPath;
import io.statesync.rest.ApiError;
import io.statesync.schemas.Values;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.ManagedFields;
import io.statesync.topology.StatusSubresource;
import io.statesync.topology.WriteAdmission;

/** The Kubernetes-like JSON form of a {@link Resource}, and the parsing of a PUT body into a {@link DesiredState}. */
public final class ResourceJson {

    public static final String API_VERSION = "statesync.io/v1";
    public static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ResourceJson() {
    }

    public static ObjectNode toJson(Resource r) {
        ObjectMeta m = r.getMetadata();
        ObjectNode n = JSON.objectNode();
        n.put("apiVersion", API_VERSION);
        n.put("kind", m.getKind());
        n.set("metadata", metadata(m));
        n.set("spec", Values.toJson(r.getSpec()));
        n.set("status", status(r.getStatus()));
        return n;
    }

    /** {@link #toJson} as UTF-8 bytes, ready to be written to a response. */
    public static byte[] toBytes(Resource r) {
        return toBytes(toJson(r));
    }

    /** A JSON tree as UTF-8 bytes. */
    public static byte[] toBytes(JsonNode n) {
        try {
            return MAPPER.writeValueAsBytes(n);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    private static ObjectNode metadata(ObjectMeta m) {
        ObjectNode n = JSON.objectNode();
        n.put("name", m.getName());
        n.put("namespace", m.getNamespace());
        n.put("uid", m.getUid());
        n.put("resourceVersion", m.getResourceVersion());
        n.put("generation", m.getGeneration());
        putTime(n, "creationTimestamp", m.getCreationTimestamp());
        putTime(n, "deletionTimestamp", m.getDeletionTimestamp());
        n.set("labels", MAPPER.valueToTree(new java.util.TreeMap<>(m.getLabels())));
        n.set("annotations", MAPPER.valueToTree(new java.util.TreeMap<>(m.getAnnotations())));
        n.set("finalizers", MAPPER.valueToTree(m.getFinalizers()));
        if (!m.getOwnerReferences().isEmpty()) {
            n.set("ownerReferences", WriteAdmission.ownerReferencesJson(m.getOwnerReferences()));
        }
        if (!m.getManagedFields().isEmpty()) {
            n.set("managedFields", ManagedFields.toJson(m.getManagedFields()));
        }
        return n;
    }

    private static ObjectNode status(ResourceStatus s) {
        ObjectNode n = JSON.objectNode();
        if (s == null) {
            return n;
        }
        n.put("observedGeneration", s.getObservedGeneration());
        n.put("syncStatus", s.getSyncStatus().name());
        ArrayNode conditions = n.putArray("conditions");
        for (Condition c : s.getConditions()) {
            putCondition(conditions, c);
        }
        for (Condition c : s.getReportedConditions()) {
            if (!StatusSubresource.OWNED_CONDITION_TYPES.contains(c.getType())) {
                putCondition(conditions, c);
            }
        }
        n.set("diff", diff(s.getDiff()));
        n.put("attempts", s.getAttempts());
        n.set("lastCorrection", correction(s.getLastCorrection()));
        putTime(n, "convergedAt", s.getConvergedAt());
        putTime(n, "lastObservedAt", s.getLastObservedAt());
        n.set("health", health(s.getHealth()));
        putReported(n, s.getReported());
        return n;
    }

    private static void putCondition(ArrayNode conditions, Condition c) {
        ObjectNode cn = conditions.addObject().put("type", c.getType()).put("status", c.getStatus())
            .put("reason", c.getReason()).put("message", c.getMessage());
        putTime(cn, "lastTransitionTime", c.getLastTransitionTime());
        if (c.getObservedGeneration() != null) {
            cn.put("observedGeneration", c.getObservedGeneration());
        }
    }

    /**
     * The reported status's fields beside statesync's own, as Kubernetes shows a controller's status; a reported
     * field of one of statesync's names is not shown (its value stays in the observation, which /diff serves).
     */
    private static void putReported(ObjectNode n, Value reported) {
        if (reported == null || !(Values.toJson(reported) instanceof ObjectNode fields)) {
            return;
        }
        for (Map.Entry<String, JsonNode> e : fields.properties()) {
            if (!StatusSubresource.OWNED_FIELDS.contains(e.getKey())) {
                n.set(e.getKey(), e.getValue());
            }
        }
    }

    /** {@code status.health}: {status, message, lastTransitionTime}. */
    public static ObjectNode health(Health h) {
        ObjectNode n = JSON.objectNode();
        n.put("status", h == null ? HealthStatus.Unknown.name() : h.getStatus().name());
        n.put("message", h == null ? "" : h.getMessage());
        putTime(n, "lastTransitionTime", h == null ? null : h.getLastTransitionTime());
        return n;
    }

    /** Field diffs as {path (dotted), pathSegments, kind, desired, observed}; the same form /diff serves. */
    public static ArrayNode diff(List<FieldDiff> diffs) {
        ArrayNode out = JSON.arrayNode();
        for (FieldDiff d : diffs) {
            ObjectNode dn = out.addObject();
            dn.put("path", new FieldPath(d.getPath()).format());
            dn.set("pathSegments", MAPPER.valueToTree(d.getPath()));
            dn.put("kind", d.getKind().name());
            dn.set("desired", Values.toJson(d.getDesired()));
            dn.set("observed", Values.toJson(d.getObserved()));
        }
        return out;
    }

    /**
     * What the owner's state adds to a diff: the whole observed state as last reported (the status keeps only the
     * differing fields), or null before any report.
     */
    static void putObserved(ObjectNode n, ReconcileState st) {
        ObservedState o = st.getObserved();
        if (o == null) {
            n.putNull("observed");
            return;
        }
        ObjectNode on = n.putObject("observed").put("reporter", o.getReporter()).put("observedGeneration", o.getObservedGeneration());
        putTime(on, "observedAt", o.getObservedAt());
        on.set("state", Values.toJson(o.getState()));
    }

    /**
     * The last correction as sent, for the diff endpoint: its patch, or for a CREATE (whose patch sets every top-level
     * field, so the state keeps only the spec) the SET of each top-level field of its desired spec.
     */
    static void putLastCorrection(ObjectNode n, ReconcileState st) {
        Correction c = st.getLastCorrection();
        if (c == null) {
            n.putNull("lastCorrection");
            return;
        }
        ObjectNode cn = n.putObject("lastCorrection").put("commandId", c.getCommandId()).put("action", c.getAction().name());
        ArrayNode patch = cn.putArray("patch");
        if (c.getAction() == Action.CREATE && c.getDesiredSpec() != null && Values.toJson(c.getDesiredSpec()).isObject()) {
            Values.toJson(c.getDesiredSpec()).properties().forEach(e -> patch.addObject().put("op", "SET")
                .put("path", e.getKey()).set("value", e.getValue()));
            return;
        }
        for (FieldOp op : c.getPatch()) {
            ObjectNode on = patch.addObject().put("op", op.getOp().name()).put("path", new FieldPath(op.getPath()).format());
            on.set("value", Values.toJson(op.getValue()));
        }
    }

    private static JsonNode correction(CorrectionRef c) {
        if (c == null) {
            return JSON.nullNode();
        }
        ObjectNode n = JSON.objectNode().put("commandId", c.getCommandId()).put("action", c.getAction().name())
            .put("reason", c.getReason().name()).put("generation", c.getGeneration()).put("attempt", c.getAttempt());
        putTime(n, "issuedAt", c.getIssuedAt());
        putTime(n, "deadline", c.getDeadline());
        return n;
    }

    static void putTime(ObjectNode n, String field, Instant t) {
        if (t == null) {
            n.putNull(field);
        } else {
            n.put(field, t.toString());
        }
    }

    /**
     * The desired state a PUT body asks for. Identity comes from the path; a kind, name or namespace in the body
     * must agree with it.
     *
     * @throws ApiError 400 naming the bad field
     */
    public static DesiredState desired(ResourceKey key, JsonNode body, String expectedResourceVersion) {
        if (body == null || !body.isObject()) {
            throw ApiError.badRequest("the body must be a JSON object");
        }
        JsonNode meta = body.path("metadata");
        if (!meta.isMissingNode() && !meta.isObject()) {
            throw ApiError.badRequest("metadata must be an object");
        }
        requireSame("kind", body.get("kind"), key.kind());
        requireSame("metadata.namespace", meta.get("namespace"), key.namespace());
        requireSame("metadata.name", meta.get("name"), key.name());
        if (body.hasNonNull("apiVersion") && !API_VERSION.equals(body.get("apiVersion").asText())) {
            throw ApiError.badRequest("apiVersion must be " + API_VERSION);
        }
        try {
            return DesiredState.newBuilder().setApiVersion(API_VERSION).setKind(key.kind()).setNamespace(key.namespace())
                .setName(key.name()).setLabels(stringMap(meta, "labels")).setAnnotations(stringMap(meta, "annotations"))
                .setFinalizers(strings(meta, "finalizers")).setOwnerReferences(ownerReferences(meta))
                .setManagedFields(ManagedFields.fromJson(meta.get("managedFields")))
                .setSpec(Values.fromJson(body.get("spec")))
                .setExpectedResourceVersion(expectedResourceVersion == null || expectedResourceVersion.isEmpty()
                    ? null : expectedResourceVersion)
                .build();
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("spec: " + e.getMessage());
        }
    }

    private static List<io.statesync.avro.OwnerReference> ownerReferences(JsonNode meta) {
        try {
            return WriteAdmission.ownerReferences(meta.get("ownerReferences"));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
    }

    private static void requireSame(String field, JsonNode given, String expected) {
        if (given != null && !given.isNull() && !expected.equals(given.asText())) {
            throw ApiError.badRequest(field + " is '" + given.asText() + "' but the path says '" + expected + "'");
        }
    }

    private static Map<String, String> stringMap(JsonNode meta, String field) {
        JsonNode n = meta.path(field);
        Map<String, String> out = new LinkedHashMap<>();
        if (n.isMissingNode() || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw ApiError.badRequest("metadata." + field + " must be an object of strings");
        }
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (!e.getValue().isTextual()) {
                throw ApiError.badRequest("metadata." + field + "." + e.getKey() + " must be a string");
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return out;
    }

    private static List<String> strings(JsonNode meta, String field) {
        JsonNode n = meta.path(field);
        List<String> out = new ArrayList<>();
        if (n.isMissingNode() || n.isNull()) {
            return out;
        }
        if (!n.isArray()) {
            throw ApiError.badRequest("metadata." + field + " must be an array of strings");
        }
        for (JsonNode e : n) {
            if (!e.isTextual()) {
                throw ApiError.badRequest("metadata." + field + " must be an array of strings");
            }
            out.add(e.textValue());
        }
        return out;
    }
}
