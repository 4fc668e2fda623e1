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
 * {@code /openapi/v2} in JSON. Each kind is a generic object (any spec, the status statesync computes beside the
 * reported one) described from its kind policy, and its PATCH operation names the {@code fieldValidation} parameter, so that kubectl
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

    /** The index: one document per served group version. */
    public void v3Index(Context ctx) {
        ObjectNode n = object();
        ObjectNode paths = n.putObject("paths");
        kinds.groups().forEach((group, versions) -> {
            for (String version : versions) {
                String gv = "apis/" + group + "/" + version;
                paths.putObject(gv).put("serverRelativeURL",
                    "/openapi/v3/" + gv + "?hash=" + hash(groupDocument(group, version).toString()));
            }
        });
        ctx.json(n);
    }

    public void v3Group(Context ctx) {
        String group = ctx.pathParam("group");
        String version = ctx.pathParam("version");
        if (!kinds.groups().getOrDefault(group, java.util.List.of()).contains(version)) {
            throw ApiError.notFound("the server could not find the requested resource");
        }
        ctx.json(groupDocument(group, version));
    }

    /**
     * Swagger 2.0 with a definition per served kind and version: a defined kind's schema converted as the apiserver
     * converts it, since a client that cannot read this document (Argo CD among them) stops working with the whole
     * server.
     */
    public void v2(Context ctx) {
        String accept = ctx.header("Accept");
        if (accept != null && accept.contains("protobuf") && !accept.contains("json") && !accept.contains("*/*")) {
            throw new ApiError(406, "NotAcceptable", "only application/json is served for /openapi/v2");
        }
        ObjectNode n = object().put("swagger", "2.0");
        n.putObject("info").put("title", "statesync").put("version", KubePaths.VERSION);
        n.putObject("paths");
        ObjectNode definitions = n.putObject("definitions");
        for (KindCatalog.Kind k : kinds.all()) {
            for (String version : k.versions()) {
                definitions.set(schemaName(k, version), OpenApiSchemas.toV2(schema(k, version)));
            }
        }
        ctx.json(n);
    }

    private ObjectNode groupDocument(String group, String version) {
        ObjectNode n = object().put("openapi", "3.0.0");
        n.putObject("info").put("title", "statesync").put("version", version);
        ObjectNode paths = n.putObject("paths");
        ObjectNode schemas = n.putObject("components").putObject("schemas");
        String root = "/apis/" + group + "/" + version + "/";
        for (KindCatalog.Kind k : kinds.inGroupVersion(group, version)) {
            schemas.set(schemaName(k, version), schema(k, version));
            String collection = root + (k.namespaced() ? "namespaces/{namespace}/" : "") + k.plural();
            ObjectNode item = paths.putObject(collection + "/{name}");
            for (String verb : new String[] {"get", "put", "patch", "delete"}) {
                operation(item.putObject(verb), k, version, verb.equals("get") ? "read" : verb);
            }
            operation(paths.putObject(collection).putObject("post"), k, version, "create");
        }
        return n;
    }

    private static void operation(ObjectNode op, KindCatalog.Kind k, String version, String action) {
        op.put("operationId", action + k.kindName()).put("description", action + " the specified " + k.kindName());
        ArrayNode params = op.putArray("parameters");
        for (String p : new String[] {"dryRun", "fieldManager", "fieldValidation"}) {
            params.addObject().put("name", p).put("in", "query").putObject("schema").put("type", "string").put("uniqueItems", true);
        }
        op.putObject(GVK).put("group", k.group()).put("version", version).put("kind", k.kindName());
        if (action.equals("patch")) {
            // The patch types of a custom resource, as Kubernetes lists them. A strategic merge patch, which kinds of
            // Kubernetes' own groups take too, is not listed: kubectl would compute it from this document's schemas,
            // which do not hold every field of such a kind, instead of from its own patch strategies.
            ObjectNode content = op.putObject("requestBody").putObject("content");
            for (String type : new String[] {"application/apply-patch+yaml", "application/json-patch+json",
                "application/merge-patch+json"}) {
                content.putObject(type).putObject("schema").put("type", "object");
            }
        }
        op.putObject("responses").putObject("200").put("description", "OK").putObject("content")
            .putObject("application/json").putObject("schema").put("$ref", "#/components/schemas/" + schemaName(k, version));
    }

    /** The definition's name as Kubernetes writes it: the group's labels reversed, the version, the kind. */
    private static String schemaName(KindCatalog.Kind k, String version) {
        java.util.List<String> labels = new java.util.ArrayList<>(java.util.List.of(k.group().split("\\.")));
        java.util.Collections.reverse(labels);
        return String.join(".", labels) + "." + version + "." + k.kindName();
    }

    /**
     * The kind's schema at {@code version}: its definition's {@code openAPIV3Schema} where it has one, with the
     * standard {@code apiVersion}, {@code kind} and {@code metadata}; otherwise a generic object described from the
     * kind's policy.
     */
    static ObjectNode schema(KindCatalog.Kind k, String version) {
        ObjectNode defined = k.definitionVersion(version) == null ? null
            : k.definitionVersion(version).path("schema").path("openAPIV3Schema") instanceof ObjectNode o ? o.deepCopy() : null;
        ObjectNode s = defined != null ? defined : generic(k);
        ObjectNode props = s.withObject("properties");
        props.putObject("apiVersion").put("type", "string").put("description", "APIVersion defines the versioned schema of"
            + " this representation of an object: " + k.apiVersion(version) + ".");
        props.putObject("kind").put("type", "string").put("description", "Kind is the REST resource this object"
            + " represents: " + k.kindName() + ".");
        props.putObject("metadata").put("type", "object").put("description", "Standard object metadata: name, namespace,"
            + " uid, resourceVersion, generation, creationTimestamp, deletionTimestamp, labels, annotations, finalizers,"
            + " ownerReferences.").put("x-kubernetes-preserve-unknown-fields", true);
        s.putArray(GVK).addObject().put("group", k.group()).put("kind", k.kindName()).put("version", version);
        return s;
    }

    private static ObjectNode generic(KindCatalog.Kind k) {
        ObjectNode s = object().put("type", "object").put("description", description(k));
        ObjectNode props = s.putObject("properties");
        props.putObject("spec").put("type", "object").put("description", "The desired state: any JSON object. Agents"
            + " converge the observed state to it field by field.").put("x-kubernetes-preserve-unknown-fields", true);
        props.putObject("status").put("type", "object").put("description", "statesync's own fields (observedGeneration,"
            + " syncStatus, health, conditions, diff, attempts, lastCorrection) beside the status the resource's controller"
            + " or agent reported, whose conditions join statesync's; written through the status subresource.")
            .put("x-kubernetes-preserve-unknown-fields", true);
        return s;
    }

    /** What the kind's policy says, in words, so that kubectl explain tells how statesync reconciles the kind. */
    private static String description(KindCatalog.Kind k) {
        KindPolicy p = k.policy();
        if (p == null) {
            return k.kindName() + " is reconciled by statesync with the default kind policy.";
        }
        StringBuilder b = new StringBuilder(k.kindName()).append(" is reconciled by statesync. Orphans: ")
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
