package io.statesync.kube.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.KindPolicy;
import io.statesync.rest.ApiError;

/**
 * The OpenAPI documents Kubernetes clients read: {@code /openapi/v3} (its index and the group's document) and
 * {@code /openapi/v2} in JSON. Each kind is a generic object (any spec, the status statesync computes) described
 * from its kind policy, and its PATCH operation names the {@code fieldValidation} parameter, so that kubectl
 * validates on the server's side instead of needing a client-side schema, and {@code kubectl explain} has a model.
 * {@code /openapi/v2} as protobuf, which kubectl asks for when it validates itself, is 406: nothing here writes
 * protobuf, and the v3 document makes that path unnecessary.
 */
public final class OpenApi {

    private static final String GVK = "x-kubernetes-group-version-kind";
    private final KindCatalog kinds;

    public OpenApi(KindCatalog kinds) {
        this.kinds = kinds;
    }

    public void v3Index(Context ctx) {
        ObjectNode n = object();
        n.putObject("paths").putObject("apis/" + KubePaths.GROUP_VERSION).put("serverRelativeURL",
            "/openapi/v3/apis/" + KubePaths.GROUP_VERSION + "?hash=" + hash(groupDocument().toString()));
        ctx.json(n);
    }

    public void v3Group(Context ctx) {
        ctx.json(groupDocument());
    }

    public void v2(Context ctx) {
        String accept = ctx.header("Accept");
        if (accept != null && accept.contains("protobuf") && !accept.contains("json") && !accept.contains("*/*")) {
            throw new ApiError(406, "NotAcceptable", "only application/json is served for /openapi/v2");
        }
        ObjectNode n = object().put("swagger", "2.0");
        n.putObject("info").put("title", "statesync").put("version", KubePaths.VERSION);
        n.putObject("paths");
        ObjectNode definitions = n.putObject("definitions");
        kinds.all().forEach(k -> definitions.set(schemaName(k), schema(k)));
        ctx.json(n);
    }

    private ObjectNode groupDocument() {
        ObjectNode n = object().put("openapi", "3.0.0");
        n.putObject("info").put("title", "statesync").put("version", KubePaths.VERSION);
        ObjectNode paths = n.putObject("paths");
        ObjectNode schemas = n.putObject("components").putObject("schemas");
        for (KindCatalog.Kind k : kinds.all()) {
            schemas.set(schemaName(k), schema(k));
            ObjectNode item = paths.putObject(KubePaths.ROOT + "/namespaces/{namespace}/" + k.plural() + "/{name}");
            for (String verb : new String[] {"get", "put", "patch", "delete"}) {
                operation(item.putObject(verb), k, verb.equals("get") ? "read" : verb);
            }
            operation(paths.putObject(KubePaths.ROOT + "/namespaces/{namespace}/" + k.plural()).putObject("post"), k, "create");
        }
        return n;
    }

    private static void operation(ObjectNode op, KindCatalog.Kind k, String action) {
        op.put("operationId", action + k.kind()).put("description", action + " the specified " + k.kind());
        ArrayNode params = op.putArray("parameters");
        for (String p : new String[] {"dryRun", "fieldManager", "fieldValidation"}) {
            params.addObject().put("name", p).put("in", "query").putObject("schema").put("type", "string").put("uniqueItems", true);
        }
        op.putObject(GVK).put("group", KubePaths.GROUP).put("version", KubePaths.VERSION).put("kind", k.kind());
        op.putObject("responses").putObject("200").put("description", "OK").putObject("content")
            .putObject("application/json").putObject("schema").put("$ref", "#/components/schemas/" + schemaName(k));
    }

    private static String schemaName(KindCatalog.Kind k) {
        return "io.statesync.v1." + k.kind();
    }

    static ObjectNode schema(KindCatalog.Kind k) {
        ObjectNode s = object().put("type", "object").put("description", description(k));
        ObjectNode props = s.putObject("properties");
        props.putObject("apiVersion").put("type", "string").put("description", "statesync.io/v1");
        props.putObject("kind").put("type", "string").put("description", k.kind());
        props.putObject("metadata").put("type", "object").put("description", "Standard object metadata: name, namespace,"
            + " uid, resourceVersion, generation, creationTimestamp, deletionTimestamp, labels, annotations, finalizers,"
            + " ownerReferences.").put("x-kubernetes-preserve-unknown-fields", true);
        props.putObject("spec").put("type", "object").put("description", "The desired state: any JSON object. Agents"
            + " converge the observed state to it field by field.").put("x-kubernetes-preserve-unknown-fields", true);
        props.putObject("status").put("type", "object").put("description", "Computed by statesync from the agents'"
            + " reports: observedGeneration, syncStatus, health, conditions, diff, attempts, lastCorrection. Read-only.")
            .put("x-kubernetes-preserve-unknown-fields", true);
        s.putArray(GVK).addObject().put("group", KubePaths.GROUP).put("kind", k.kind()).put("version", KubePaths.VERSION);
        return s;
    }

    /** What the kind's policy says, in words, so that kubectl explain tells how statesync reconciles the kind. */
    private static String description(KindCatalog.Kind k) {
        KindPolicy p = k.policy();
        if (p == null) {
            return k.kind() + " is reconciled by statesync with the default kind policy.";
        }
        StringBuilder b = new StringBuilder(k.kind()).append(" is reconciled by statesync. Orphans: ")
            .append(p.getOrphanPolicy());
        if (!p.getIgnoredFields().isEmpty()) {
            b.append(". Ignored fields: ").append(String.join(", ", p.getIgnoredFields()));
        }
        if (!p.getValidationRules().isEmpty()) {
            b.append(". Validation rules: ").append(p.getValidationRules().size());
        }
        if (!p.getHealthRules().isEmpty()) {
            b.append(". Health rules: ").append(p.getHealthRules().size());
        }
        return b.append('.').toString();
    }

    private static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16).toUpperCase(java.util.Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }

    private static ObjectNode object() {
        return ResourceHandlers.MAPPER.createObjectNode();
    }
}
