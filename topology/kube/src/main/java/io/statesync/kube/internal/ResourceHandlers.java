package io.statesync.kube.internal;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.DesiredState;
import io.statesync.avro.PatchType;
import io.statesync.kube.KubeConfig;
import io.statesync.rest.ApiError;
import io.statesync.rest.RestContext;
import io.statesync.rest.store.ConvergenceWaits;
import io.statesync.rest.store.ResourceStore;
import io.statesync.rest.store.WriteResult;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.WriteAdmission;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchPosition;

/**
 * The verbs on the group's objects: get, create, update, patch, delete and the {@code status} subresource, whose
 * writes are observed reports. Every write and dry run goes through the server's resource store ({@link RestContext#store}); reads
 * come from the resource view. Lists, watches and collection deletes are in {@link Collections}.
 */
public final class ResourceHandlers {

    /**
     * Parses as strictly as {@code /api/v1}: a duplicate key or a token after the document is a 400, never read as
     * the last value or ignored, so that what a client meant and what is stored cannot differ.
     */
    static final ObjectMapper MAPPER = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** Kubernetes' generated-name characters: no vowels and no look-alikes, so that no word or ambiguity appears. */
    private static final String NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int GENERATED_SUFFIX_LENGTH = 5;
    /** A name is at most 63 characters where it must be a label, so the prefix keeps 58. */
    private static final int MAX_GENERATE_NAME_PREFIX = 58;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final RestContext context;
    private final KindCatalog kinds;

    public ResourceHandlers(RestContext context, KindCatalog kinds) {
        this.context = context;
        this.kinds = kinds;
    }

    /** GET of {@code .../status}: the object, where the version serves the subresource. */
    public void statusGet(Context ctx) throws InterruptedException {
        statusOf(ctx);
        get(ctx);
    }

    /** The served kind of a {@code .../status} path; 404 as the apiserver answers when the version has no such subresource. */
    private KindCatalog.Served statusOf(Context ctx) {
        KindCatalog.Served served = kinds.resolve(ctx);
        if (!served.hasStatusSubresource()) {
            throw ApiError.notFound("the server could not find the requested resource");
        }
        return served;
    }

    public void get(Context ctx) throws InterruptedException {
        KindCatalog.Served served = kinds.resolve(ctx);
        KindCatalog.Kind kind = served.kind();
        ResourceKey key = key(kind, KindCatalog.namespace(ctx, served, false), ctx.pathParam("name"));
        ResourceView view = context.caughtUpView();
        // The position first: the object read after it is as new or newer, so a watch from the token may repeat a
        // change but never miss one.
        WatchPosition position = view.position();
        StoredResource r = view.get(key.toString());
        if (r == null) {
            throw notFound(kind, key.name());
        }
        Tables.respond(ctx, served, List.of(KubeObjects.of(served, r, KubeResourceVersion.token(position, null, r.resourceVersion()))), null, null, true);
    }

    public void create(Context ctx) throws InterruptedException {
        KindCatalog.Served served = kinds.resolve(ctx);
        KindCatalog.Kind kind = served.kind();
        ObjectNode body = body(ctx, served);
        ResourceKey key = key(kind, KindCatalog.namespace(ctx, served, false), nameOf(kind, body));
        DesiredState desired = RestContext.desired(key, body, null);
        desired.setCreateOnly(true);
        refuseWhileDefinitionTerminates(kind);
        written(ctx, served, key, desired);
    }

    /** As the apiserver, no object of a kind is created while its definition is deleted with its objects. */
    private void refuseWhileDefinitionTerminates(KindCatalog.Kind kind) {
        if (kind.definition() == null) {
            return;
        }
        StoredResource crd = context.view().get(KindCatalog.CRD_KIND + "//" + kind.plural() + "." + kind.group());
        if (crd != null && crd.resource().getMetadata().getDeletionTimestamp() != null) {
            throw KubeStatus.methodNotAllowed("create not allowed while custom resource definition is terminating");
        }
    }

    /**
     * The object's name: {@code metadata.name}, or else one made from {@code metadata.generateName} as Kubernetes makes
     * it (the prefix cut to leave room, then five random characters), written back into the body.
     */
    static String nameOf(KindCatalog.Kind kind, ObjectNode body) {
        JsonNode meta = body.path("metadata");
        JsonNode name = meta.path("name");
        if (name.isTextual() && !name.asText().isEmpty()) {
            return name.asText();
        }
        JsonNode prefix = meta.path("generateName");
        if (!prefix.isTextual() || prefix.asText().isEmpty() || !(meta instanceof ObjectNode m)) {
            throw invalid(kind, "", "metadata.name: Required value: name or generateName is required");
        }
        String base = prefix.asText();
        StringBuilder generated = new StringBuilder(base.substring(0, Math.min(base.length(), MAX_GENERATE_NAME_PREFIX)));
        for (int i = 0; i < GENERATED_SUFFIX_LENGTH; i++) {
            generated.append(NAME_ALPHABET.charAt(RANDOM.nextInt(NAME_ALPHABET.length())));
        }
        m.put("name", generated.toString());
        return generated.toString();
    }

    /** PUT: replace an existing object; metadata.resourceVersion, when given, is the precondition. */
    public void update(Context ctx) throws InterruptedException {
        KindCatalog.Served served = kinds.resolve(ctx);
        KindCatalog.Kind kind = served.kind();
        ObjectNode body = body(ctx, served);
        ResourceKey key = key(kind, KindCatalog.namespace(ctx, served, false), ctx.pathParam("name"));
        String expected = KubeResourceVersion.precondition(body.path("metadata").path("resourceVersion").asText(null));
        // A custom resource is not created by an update in Kubernetes (kubectl replace of a missing object fails).
        if (context.caughtUpView().get(key.toString()) == null) {
            throw notFound(kind, key.name());
        }
        written(ctx, served, key, RestContext.desired(key, body, expected));
    }

    public void patch(Context ctx) throws InterruptedException {
        KindCatalog.Served served = kinds.resolve(ctx);
        ResourceKey key = key(served.kind(), KindCatalog.namespace(ctx, served, false), ctx.pathParam("name"));
        PatchType type = KubeRequests.patchType(ctx.contentType(), served.kind());
        if (type == PatchType.Apply) {
            apply(ctx, served, key);
            return;
        }
        RestContext.force(ctx, false);
        JsonNode patch = parse(ctx);
        if (patch instanceof ObjectNode merge) {
            FieldValidation.check(ctx, served, merge, limits());
            toServerForm(merge, served);
        }
        if (patch instanceof ObjectNode merge && merge.path("metadata") instanceof ObjectNode meta
            && meta.has("resourceVersion")) {
            String expected = KubeResourceVersion.precondition(meta.path("resourceVersion").asText(null));
            if (expected == null) {
                meta.remove("resourceVersion");
            } else {
                meta.put("resourceVersion", expected);
            }
        }
        String expected = patch instanceof ArrayNode ops ? jsonPatchPrecondition(ops) : null;
        written(ctx, served, key, RestContext.patch(key, type, patch, expected));
    }

    private static final String RESOURCE_VERSION_PATH = "/metadata/resourceVersion";

    /**
     * The precondition a JSON patch sets: the apiserver applies the patch and then updates with the patched object's
     * resourceVersion, so an operation that adds, replaces or tests {@code /metadata/resourceVersion} (fabric8's
     * {@code edit}, and so Java Operator SDK's finalizer removal, add it) is a compare-and-swap on that token. Such
     * operations are taken out of {@code ops} (the server's form has no token to patch); a removal of the field is
     * taken out too, as it leaves the update unconditional. Null when no operation names it.
     */
    static String jsonPatchPrecondition(ArrayNode ops) {
        String expected = null;
        for (java.util.Iterator<JsonNode> it = ops.iterator(); it.hasNext(); ) {
            JsonNode op = it.next();
            if (!RESOURCE_VERSION_PATH.equals(op.path("path").asText())) {
                continue;
            }
            String verb = op.path("op").asText();
            if (verb.equals("add") || verb.equals("replace") || verb.equals("test")) {
                String given = KubeResourceVersion.precondition(op.path("value").asText(null));
                expected = expected == null ? given : expected;
                it.remove();
            } else if (verb.equals("remove")) {
                it.remove();
            }
        }
        return expected;
    }

    /**
     * Server-side apply: the configuration's {@code metadata.resourceVersion}, a token of this API, is the precondition;
     * the manager and {@code force} come from the parameters.
     */
    private void apply(Context ctx, KindCatalog.Served served, ResourceKey key) throws InterruptedException {
        JsonNode config = RestContext.applyDocument(ctx.bodyAsBytes());
        if (config instanceof ObjectNode o) {
            FieldValidation.check(ctx, served, o, limits());
            toServerForm(o, served);
        }
        String expected = null;
        if (config.path("metadata") instanceof ObjectNode meta && meta.has("resourceVersion")) {
            expected = KubeResourceVersion.precondition(meta.path("resourceVersion").asText(null));
            meta.remove("resourceVersion");
        }
        boolean createOnly = false;
        if (expected != null && context.caughtUpView().get(key.toString()) == null) {
            // The apiserver creates a missing object from an apply whatever resourceVersion it names: the precondition
            // holds against a stored object only. Java Operator SDK names one to create a dependent only if absent,
            // which create-only keeps exactly, decided in the key's task.
            expected = null;
            createOnly = true;
        }
        DesiredState desired = RestContext.apply(key, config, expected, RestContext.applyFieldManager(ctx),
            RestContext.force(ctx, true));
        desired.setCreateOnly(createOnly);
        written(ctx, served, key, desired);
    }

    /**
     * PUT and PATCH of the status subresource: an observed report, as a controller's status write is in Kubernetes.
     * A PUT's body holds the status; a merge or JSON patch applies to the object and its status is taken; an applied
     * configuration's status merges into it, its reporter the field manager. metadata.resourceVersion, when given,
     * is the precondition; spec, metadata and generation never change.
     */
    public void statusWrite(Context ctx) throws InterruptedException {
        KindCatalog.Served served = statusOf(ctx);
        KindCatalog.Kind kind = served.kind();
        ResourceKey key = key(kind, KindCatalog.namespace(ctx, served, false), ctx.pathParam("name"));
        PatchType type = "PUT".equals(ctx.method().name()) ? null : KubeRequests.patchType(ctx.contentType(), kind);
        JsonNode body = type == PatchType.Apply ? RestContext.applyDocument(ctx.bodyAsBytes()) : parse(ctx);
        if (body instanceof ObjectNode o && type != PatchType.JsonPatch) {
            toServerForm(o, served);
        }
        String expected = KubeResourceVersion.precondition(body.path("metadata").path("resourceVersion").asText(null));
        if (KubeRequests.dryRun(ctx)) {
            throw ApiError.badRequest("dryRun is not supported on the status subresource");
        }
        WatchPosition position = context.view().position();
        ResourceStore.StatusResult r;
        try {
            r = context.store().writeStatus(key, new ResourceStore.StatusWrite(type, body, expected,
                body.path("metadata").path("uid").asText(null), type == PatchType.Apply
                    ? RestContext.applyFieldManager(ctx) : RestContext.fieldManager(ctx)),
                WriteAdmission.Limits.of(context.config()), context.requestId(ctx), ctx.header("Authorization"));
        } catch (ApiError e) {
            throw kubeMessage(e, kind, key.name());
        }
        for (String warning : r.warnings()) {
            ctx.res().addHeader("Warning", "299 - \"" + warning + "\"");
        }
        ObjectNode object = r.result().object().deepCopy();
        String version = r.result().resourceVersion() != null ? r.result().resourceVersion()
            : object.path("metadata").path("resourceVersion").asText("");
        ctx.json(ShownStatus.of(served, KubeObjects.of(served, object, KubeResourceVersion.token(position, null, version))));
    }

    public void delete(Context ctx) throws InterruptedException {
        KindCatalog.Served served = kinds.resolve(ctx);
        KindCatalog.Kind kind = served.kind();
        ResourceKey key = key(kind, KindCatalog.namespace(ctx, served, false), ctx.pathParam("name"));
        DeleteOptions options = DeleteOptions.of(ctx, body(ctx));
        String uid = options.checkUid(context.caughtUpView().get(key.toString()), kind, key.name());
        options.delete(context, kind, key, context.requestId(ctx));
        ctx.json(KubeStatus.success(kind.group(), kind.plural(), key.name(), uid));
    }

    /** An awaited write answered as Kubernetes does: 201 for a create, 200 otherwise, with the object as stored. */
    private void written(Context ctx, KindCatalog.Served served, ResourceKey key, DesiredState desired) throws InterruptedException {
        KindCatalog.Kind kind = served.kind();
        WatchPosition position = context.view().position();
        if (desired.getFieldManager() == null) {
            desired.setFieldManager(RestContext.fieldManager(ctx));
        }
        // The version the request was written in, which managed fields record beside their manager.
        desired.setApiVersion(served.apiVersion());
        boolean dryRun = KubeRequests.dryRun(ctx);
        String requestId = context.requestId(ctx);
        ConvergenceWaits.Wait wait = context.reserveWait(ctx, dryRun);
        WriteResult w;
        try {
            if (KindCatalog.CRD_KIND.equals(kind.kind())) {
                validateDefinition(key, desired);
            }
            w = dryRun ? context.store().dryRunWrite(key, desired)
                : context.store().write(key, desired, requestId, ctx.header("Authorization"));
        } catch (RuntimeException | InterruptedException e) {
            if (wait != null) {
                wait.release();
            }
            if (e instanceof ApiError a) {
                throw kubeMessage(a, kind, key.name());
            }
            throw e;
        }
        ObjectNode object = w.object().deepCopy();
        if (w.stale()) {
            ctx.header("Warning", io.statesync.rest.RestContext.STALE_WARNING);
        }
        String version = w.resourceVersion() != null ? w.resourceVersion()
            : object.path("metadata").path("resourceVersion").asText("");
        ObjectNode answered = ShownStatus.of(served, KubeObjects.of(served, object, KubeResourceVersion.token(position, null, version)));
        if (wait != null) {
            RestContext.answerWhenConverged(ctx, wait, key.toString(), w.code(), answered,
                r -> ShownStatus.of(served, KubeObjects.of(served, r,
                    KubeResourceVersion.token(context.view().position(), null, r.resourceVersion()))));
            return;
        }
        ctx.status(w.code());
        ctx.json(answered);
    }

    /**
     * Refuses a definition the apiserver would refuse: checked on what the write would store, from a dry run, so that
     * a patch or an apply is checked on its result. A write racing another on the same definition may slip past the
     * names check, which the next write of either then reports.
     */
    private void validateDefinition(ResourceKey key, DesiredState desired) throws InterruptedException {
        WriteResult preview = context.store().dryRunWrite(key, desired);
        if (preview.code() == 201 && kinds.definitionsFull()) {
            throw ApiError.forbidden("customresourcedefinitions.apiextensions.k8s.io \"" + key.name()
                + "\" is forbidden: at most " + kinds.maxDefinitions() + " CustomResourceDefinitions may be defined ("
                + KubeConfig.DEFINITIONS_MAX_COUNT + ")");
        }
        if (preview.object() instanceof ObjectNode object) {
            CustomResourceDefinitions.validate(object, key.name(), kinds.all(), io.statesync.topology.PolicyCatalog.definitionLimits(context.config()));
        }
    }

    /** The bounds of definitions' schemas, from the instance's configuration. */
    private io.statesync.reconciler.schema.StructuralSchema.Limits limits() {
        return io.statesync.topology.PolicyCatalog.definitionLimits(context.config());
    }

    /** The messages kubectl users know for the reasons Kubernetes has. */
    static ApiError kubeMessage(ApiError e, KindCatalog.Kind kind, String name) {
        String what = kind.qualifiedPlural() + " \"" + name + "\"";
        return switch (e.reason()) {
            case "NotFound" -> e.subject() != null ? e : notFound(kind, name);
            case "Forbidden" -> e.causes().isEmpty() ? e : ApiError.forbidden(what + " is forbidden: " + e.getMessage(),
                e.causes()).about(new ApiError.Subject(kind.group(), kind.plural(), name));
            case "AlreadyExists" -> new ApiError(409, "AlreadyExists", what + " already exists");
            case "Conflict" -> !e.causes().isEmpty() ? e : ApiError.conflict("Operation cannot be fulfilled on " + what + ": the object has been modified;"
                + " please apply your changes to the latest version and try again (" + e.getMessage() + ")", e.resourceVersion());
            case "ValidationFailed", "Invalid" -> invalidAs(e, kind, name);
            default -> e;
        };
    }

    /** Kubernetes' Invalid: {@code Kind.group "name" is invalid: ...}, its causes kept, the object in its details. */
    private static ApiError invalidAs(ApiError e, KindCatalog.Kind kind, String name) {
        String what = (kind.group().isEmpty() ? kind.kindName() : kind.kindName() + "." + kind.group()) + " \"" + name + "\"";
        String message = e.getMessage().startsWith(what) ? e.getMessage() : what + " is invalid: " + e.getMessage();
        return ApiError.invalid(message, e.causes()).about(new ApiError.Subject(kind.group(), kind.kindName(), name));
    }

    static ApiError notFound(KindCatalog.Kind kind, String name) {
        return ApiError.notFound(kind.qualifiedPlural() + " \"" + name + "\" not found");
    }

    private static ApiError invalid(KindCatalog.Kind kind, String name, String message) {
        return new ApiError(422, "Invalid", kind.kindName() + "." + kind.group() + " \"" + name + "\" is invalid: " + message);
    }

    static ResourceKey key(KindCatalog.Kind kind, String namespace, String name) {
        try {
            return ResourceKey.of(kind.kind(), namespace, name);
        } catch (IllegalArgumentException e) {
            throw invalid(kind, name, e.getMessage());
        }
    }

    /**
     * A write's object of the served kind, in the server's form ({@link #toServerForm}), its unknown fields checked as
     * {@code fieldValidation} asks.
     */
    private ObjectNode body(Context ctx, KindCatalog.Served served) {
        if (KubeProtobuf.isProtobuf(ctx.contentType())) {
            if (served.kind() != KindCatalog.NAMESPACES) {
                throw ApiError.unsupportedMediaType("the body of the request was in an unknown format - accepted media"
                    + " types include: application/json, application/yaml");
            }
            return toServerForm(KubeProtobuf.namespace(ctx.bodyAsBytes()), served);
        }
        if (!(parse(ctx) instanceof ObjectNode body)) {
            throw ApiError.badRequest("the body must be a JSON object");
        }
        FieldValidation.check(ctx, served, body, limits());
        return toServerForm(body, served);
    }

    /**
     * A Kubernetes object, patch or applied configuration in the server's form: its {@code apiVersion}, when given,
     * must be the served one and is dropped (the server's form has one), its {@code kind}, when given, must be the
     * served kind and becomes the kind as keys write it, and a cluster-scoped kind's {@code metadata.namespace} is
     * dropped, as Kubernetes ignores it. Changes and returns {@code body}.
     */
    static ObjectNode toServerForm(ObjectNode body, KindCatalog.Served served) {
        KindCatalog.Kind kind = served.kind();
        if (body.hasNonNull("apiVersion") && !served.apiVersion().equals(body.get("apiVersion").asText())) {
            throw ApiError.badRequest("apiVersion must be " + served.apiVersion());
        }
        if (body.hasNonNull("kind") && !kind.kindName().equals(body.get("kind").asText())) {
            throw ApiError.badRequest("kind must be " + kind.kindName() + " for " + kind.qualifiedPlural());
        }
        body.remove("apiVersion");
        if (body.hasNonNull("kind")) {
            body.put("kind", kind.kind());
        }
        if (!kind.namespaced() && body.get("metadata") instanceof ObjectNode meta) {
            meta.remove("namespace");
        }
        if (kind == KindCatalog.NAMESPACES) {
            // A namespace's finalizer and phase are the server's, as Kubernetes ignores them in a write.
            body.remove("spec");
            body.remove("status");
        }
        return body;
    }

    /** The body as JSON; an empty body is an empty object. */
    static JsonNode body(Context ctx) {
        byte[] bytes = ctx.bodyAsBytes();
        return bytes.length == 0 ? MAPPER.createObjectNode() : parse(bytes);
    }

    private static JsonNode parse(Context ctx) {
        return parse(ctx.bodyAsBytes());
    }

    static JsonNode parse(byte[] bytes) {
        try {
            JsonNode n = MAPPER.readTree(bytes);
            if (n == null || n.isMissingNode()) {
                throw ApiError.badRequest("the body is empty");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("the body is not JSON: " + e.getOriginalMessage()
                + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr()));
        } catch (IOException e) {
            throw ApiError.badRequest("the body is not JSON: " + e.getMessage());
        }
    }

    /** The items of a list body, for handlers that build lists. */
    static ArrayNode items(ObjectNode list) {
        return (ArrayNode) list.get("items");
    }
}
