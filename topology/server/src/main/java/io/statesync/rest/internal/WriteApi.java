package io.statesync.rest.internal;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.PatchType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.WritePatch;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.Differ;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.Propagation;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.rest.ApiError;
import io.statesync.server.ServerConfig;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.OutputLimits;
import io.statesync.topology.WriteAdmission;
import io.statesync.schemas.Values;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;

/**
 * The write handlers of {@code /api/v1/resources}: PUT, create-only POST and {@code If-None-Match: *}, server-side
 * PATCH, DELETE, each also as a dry run. A write goes to admission, which applies it serialized per key in the
 * owning task; a dry run applies the same {@link WriteAdmission} rules to the newest committed copy and writes nothing.
 */
public final class WriteApi implements DryRunner {

    public static final String MERGE_PATCH = "application/merge-patch+json";
    public static final String JSON_PATCH = "application/json-patch+json";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** How long a write's answer waits for the view to show the written version before asking the owner. */
    private static final Duration READ_BACK_WAIT = Duration.ofSeconds(2);

    private final AppConfig config;
    private final KeyRouter router;
    private final AdmissionClient admission;
    private final ResourceView view;
    private final Function<String, ReconcilePolicy> policies;
    private final Supplier<long[]> committedEndOffsets;
    private final AnsweredWrites answeredWrites;

    public WriteApi(AppConfig config, KeyRouter router, AdmissionClient admission, ResourceView view,
                    Function<String, ReconcilePolicy> policies, Supplier<long[]> committedEndOffsets,
                    AnsweredWrites answeredWrites) {
        this.config = config;
        this.router = router;
        this.admission = admission;
        this.view = view;
        this.policies = policies;
        this.committedEndOffsets = committedEndOffsets;
        this.answeredWrites = answeredWrites;
    }

    /** PUT: create or replace; {@code If-None-Match: *} makes it create-only, If-Match a compare-and-swap. */
    public void put(Context ctx) throws InterruptedException {
        ResourceKey key = ResourceApi.key(ctx);
        JsonNode body = BodyReader.document(ctx, config.getInt(ServerConfig.HTTP_MAX_BODY_BYTES));
        DesiredState d = ResourceJson.desired(key, body, expectedVersion(ctx, body));
        d.setCreateOnly("*".equals(trimmed(ctx.header("If-None-Match"))));
        write(ctx, key, d);
    }

    /** POST to a namespace's collection: create only, with the name in the body's metadata, as Kubernetes creates. */
    public void create(Context ctx) throws InterruptedException {
        JsonNode body = BodyReader.document(ctx, config.getInt(ServerConfig.HTTP_MAX_BODY_BYTES));
        JsonNode name = body.path("metadata").path("name");
        if (!name.isTextual() || name.asText().isEmpty()) {
            throw ApiError.badRequest("metadata.name is required: the name of the resource to create");
        }
        ResourceKey key;
        try {
            key = ResourceKey.of(ctx.pathParam("kind"), ctx.pathParam("namespace"), name.asText());
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        DesiredState d = ResourceJson.desired(key, body, null);
        d.setCreateOnly(true);
        write(ctx, key, d);
    }

    /**
     * PATCH: the patch travels to admission, which applies it to the stored object in the owning task, so a patch
     * without a precondition never conflicts. If-Match, or a merge patch's metadata.resourceVersion, makes it a CAS.
     */
    public void patch(Context ctx) throws InterruptedException {
        ResourceKey key = ResourceApi.key(ctx);
        PatchType type = patchType(ctx.contentType());
        JsonNode patch = BodyReader.json(ctx, config.getInt(ServerConfig.HTTP_MAX_BODY_BYTES));
        write(ctx, key, patchRequest(key, type, patch, ResourceApi.ifMatch(ctx)));
    }

    /**
     * The desired state that carries a patch to admission; a merge patch's identity is checked against the key and its
     * {@code metadata.resourceVersion} becomes the precondition unless {@code expected} is given.
     */
    public static DesiredState patchRequest(ResourceKey key, PatchType type, JsonNode patch, String expected) {
        if (type == PatchType.MergePatch) {
            if (!patch.isObject()) {
                throw ApiError.badRequest("a merge patch must be a JSON object");
            }
            expected = expected != null ? expected : takeIdentity(key, (ObjectNode) patch);
        } else if (!patch.isArray()) {
            throw ApiError.badRequest("a JSON patch must be an array of operations");
        }
        return DesiredState.newBuilder().setKind(key.kind()).setNamespace(key.namespace()).setName(key.name())
            .setExpectedResourceVersion(expected).setPatch(new WritePatch(type, patch.toString())).build();
    }

    public void delete(Context ctx) throws InterruptedException {
        ResourceKey key = ResourceApi.key(ctx);
        String expected = ResourceApi.ifMatch(ctx);
        if (expected == null) {
            expected = ctx.queryParam("resourceVersion");
        }
        Written w = remove(key, expected, propagationPolicy(ctx), dryRun(ctx), requestId(ctx));
        ObjectNode out = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", "Status")
            .put("status", "Success").put("reason", w.reason()).put("message", "deletion requested");
        out.putObject("details").put("name", key.name()).put("namespace", key.namespace()).put("kind", key.kind())
            .put("resourceVersion", w.resourceVersion() == null ? "" : w.resourceVersion());
        ctx.json(out);
    }

    /**
     * What the delete does to the dependents: {@code ?propagationPolicy=}, or a DeleteOptions body's
     * {@code propagationPolicy}, as Kubernetes takes it; Background when neither says.
     */
    private Propagation propagationPolicy(Context ctx) {
        String given = ctx.queryParam("propagationPolicy");
        if (given == null && ctx.contentLength() > 0) {
            JsonNode options = BodyReader.json(ctx, config.getInt(ServerConfig.HTTP_MAX_BODY_BYTES));
            JsonNode p = options.path("propagationPolicy");
            given = p.isTextual() ? p.asText() : null;
        }
        String name = given;
        return Propagation.parse(name).filter(p -> name == null || p.name().equals(name))
            .orElseThrow(() -> ApiError.unprocessable("propagationPolicy: Unsupported value: \"" + name
                + "\": supported values: \"Background\", \"Foreground\", \"Orphan\""));
    }

    /** A write's outcome: its status, admission's reason ({@code DryRun} for a dry run), the new version and object. */
    public record Written(int code, String reason, String resourceVersion, JsonNode object) {
    }

    /**
     * A delete through admission, or its dry run: the object as it stands (null after a real delete, whose object
     * is not read back), the version admission answered with.
     */
    public Written remove(ResourceKey key, String expected, Propagation propagation, boolean dryRun,
                          String requestId) throws InterruptedException {
        if (dryRun) {
            JsonNode object = delete(key, expected).object();
            return new Written(200, "DryRun", object.path("metadata").path("resourceVersion").asText(), object);
        }
        ReconcileEvent e = admission.submit(new AdmissionClient.Submission(key.toString(), null, requestId, expected,
            propagation.name()));
        answerErrors(e);
        answeredWrites.answered(key.toString(), e.getResourceVersion());
        return new Written(200, e.getReason(), e.getResourceVersion(), null);
    }

    private void write(Context ctx, ResourceKey key, DesiredState desired) throws InterruptedException {
        Written w = submit(key, desired, dryRun(ctx), requestId(ctx), ctx.header("Authorization"));
        ctx.status(w.code());
        if (w.resourceVersion() != null) {
            ctx.header("ETag", ResourceApi.quote(w.resourceVersion()));
        }
        ctx.header("X-Statesync-Admission", w.reason());
        if (w.object() != null && w.object().path("dryRun").path("stale").asBoolean()) {
            StaleAnswers.mark(ctx);
        }
        ctx.json(w.object());
    }

    /**
     * One write through admission, awaited, and the object as stored read back through the key's owner (with the
     * caller's {@code authorization}); or its dry run, which writes nothing.
     */
    public Written submit(ResourceKey key, DesiredState desired, boolean dryRun, String requestId, String authorization)
        throws InterruptedException {
        if (dryRun) {
            DryRunner.DryRun r = write(key, desired);
            return new Written(r.code(), "DryRun", null, r.object());
        }
        ReconcileEvent e = admission.submit(key.toString(), desired, requestId, null);
        answerErrors(e);
        answeredWrites.answered(key.toString(), e.getResourceVersion());
        return new Written("Created".equals(e.getReason()) ? 201 : 200, e.getReason(), e.getResourceVersion(),
            readBack(authorization, key, e));
    }

    /** The admission rules against the newest committed copy: the object as it would be stored, and nothing written. */
    @Override
    public DryRunner.DryRun write(ResourceKey key, DesiredState desired) throws InterruptedException {
        boolean[] stale = new boolean[1];
        Resource current = committedCopy(key, stale);
        ReconcilePolicy policy = policies.apply(key.kind());
        WriteAdmission.Decision d = WriteAdmission.decide(current, desired, policy, WriteAdmission.Limits.of(config));
        if (d instanceof WriteAdmission.Refused r) {
            throw error(r.type(), r.reason(), r.message(), current == null ? "" : current.getMetadata().getResourceVersion());
        }
        WriteAdmission.Accepted accepted = (WriteAdmission.Accepted) d;
        WriteAdmission.Refused tooLarge = OutputLimits.refusal(config, accepted.effective(), null);
        if (tooLarge != null) {
            throw error(tooLarge.type(), tooLarge.reason(), tooLarge.message(), current == null ? ""
                : current.getMetadata().getResourceVersion());
        }
        Resource after = WriteAdmission.admitted(current, accepted, System.currentTimeMillis());
        ObjectNode out = (ObjectNode) ResourceJson.toJson(after);
        ObjectNode summary = out.putObject("dryRun").put("outcome", accepted.outcome().getClass().getSimpleName())
            .put("generation", accepted.outcome().generation());
        if (stale[0]) {
            // The view did not catch up in time: the outcome was decided against a copy that may be older than the newest.
            summary.put("stale", true);
        }
        List<FieldDiff> changes = Differ.diff(Values.toJava(after.getSpec()),
            current == null ? null : Values.toJava(current.getSpec()), ReconcilePolicy.defaults());
        ArrayNode specChanges = summary.putArray("specChanges");
        for (FieldDiff c : changes) {
            ObjectNode n = specChanges.addObject().put("path", c.path().format()).put("kind", c.kind().name());
            n.set("new", Values.toJson(Values.fromJava(c.desired())));
            n.set("old", Values.toJson(Values.fromJava(c.observed())));
        }
        return new DryRun(current == null ? 201 : 200, out);
    }

    @Override
    public DryRunner.DryRun delete(ResourceKey key, String expectedResourceVersion) throws InterruptedException {
        Resource current = committedCopy(key);
        WriteAdmission.Refused refused = WriteAdmission.decideDelete(current, key.toString(), expectedResourceVersion);
        if (refused != null) {
            throw error(refused.type(), refused.reason(), refused.message(), current == null ? ""
                : current.getMetadata().getResourceVersion());
        }
        return new DryRun(200, (ObjectNode) ResourceJson.toJson(current));
    }

    /** The newest committed copy of a key, from the resource view once it has caught up with the committed end. */
    private Resource committedCopy(ResourceKey key) throws InterruptedException {
        return committedCopy(key, new boolean[1]);
    }

    /** {@link #committedCopy(ResourceKey)}; sets {@code stale[0]} when the view did not catch up within the wait. */
    private Resource committedCopy(ResourceKey key, boolean[] stale) throws InterruptedException {
        if (!view.ready()) {
            throw ApiError.unavailable("the resource view is still loading", 1);
        }
        stale[0] = !view.awaitPosition(committedEndOffsets.get(), Duration.ofSeconds(5));
        StoredResource r = view.get(key.toString());
        return r == null || r.resource().getMetadata().getGeneration() == 0 ? null : r.resource();
    }

    /** {@code dryRun=All} as Kubernetes spells it; absent means a real write. */
    static boolean dryRun(Context ctx) {
        String v = ctx.queryParam("dryRun");
        if (v == null) {
            return false;
        }
        if (!v.equals("All")) {
            throw ApiError.badRequest("dryRun must be 'All' or absent");
        }
        return true;
    }

    static PatchType patchType(String contentType) {
        String base = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (base.equals(MERGE_PATCH)) {
            return PatchType.MergePatch;
        }
        if (base.equals(JSON_PATCH)) {
            return PatchType.JsonPatch;
        }
        throw ApiError.unsupportedMediaType("Content-Type must be " + MERGE_PATCH + " or " + JSON_PATCH
            + (contentType == null ? "" : ", got " + contentType));
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

    /** Maps a Conflict or Invalid admission answer to its HTTP error. */
    static void answerErrors(ReconcileEvent e) {
        if (e.getType() == EventType.Conflict || e.getType() == EventType.Invalid) {
            throw error(e.getType(), e.getReason(), e.getMessage(), e.getResourceVersion() == null ? "" : e.getResourceVersion());
        }
    }

    /**
     * The status of a refused write: 409 for a conflict, 404 for a missing object, 422 for a patch that does not apply,
     * a patch whose result would pass the size, depth or operation limits, or a spec that breaks the kind's validation
     * rules; 413 for a write whose outputs would not fit the topics.
     */
    static ApiError error(EventType type, String reason, String message, String currentVersion) {
        if (type == EventType.Conflict) {
            return WriteAdmission.ALREADY_EXISTS.equals(reason) ? ApiError.alreadyExists(message)
                : ApiError.conflict(message, currentVersion);
        }
        if (WriteAdmission.NOT_FOUND.equals(reason)) {
            return ApiError.notFound(message);
        }
        if (WriteAdmission.VALIDATION_FAILED.equals(reason)) {
            return ApiError.validationFailed(message);
        }
        if (WriteAdmission.OUTPUT_TOO_LARGE.equals(reason)) {
            return new ApiError(413, WriteAdmission.OUTPUT_TOO_LARGE, message);
        }
        if (WriteAdmission.PATCH_TOO_LARGE.equals(reason)) {
            return new ApiError(422, WriteAdmission.PATCH_TOO_LARGE, message);
        }
        if (WriteAdmission.INVALID_OWNER_REFERENCES.equals(reason)) {
            return ApiError.unprocessable(message);
        }
        if (WriteAdmission.POLICY_UNAVAILABLE.equals(reason)) {
            return ApiError.unavailable(message, 1);
        }
        return WriteAdmission.PATCH_NOT_APPLICABLE.equals(reason) ? ApiError.unprocessable(message) : ApiError.badRequest(message);
    }

    private String expectedVersion(Context ctx, JsonNode body) {
        String expected = ResourceApi.ifMatch(ctx);
        if (expected == null && body.path("metadata").hasNonNull("resourceVersion")) {
            expected = body.path("metadata").get("resourceVersion").asText();
        }
        return expected;
    }

    /**
     * The object as stored after the write (or newer): from the resource view, which reads the write's Resource
     * moments after its answer, since both are in one transaction; through the key's owner when the view is slow.
     */
    private JsonNode readBack(String authorization, ResourceKey key, ReconcileEvent e) throws InterruptedException {
        long version = ResourceVersions.parse(e.getResourceVersion());
        if (version > 0 && view.ready()) {
            StoredResource r = view.awaitVersion(key.toString(), version, READ_BACK_WAIT);
            if (r != null) {
                return ResourceJson.toJson(r.resource());
            }
        }
        try {
            return current(authorization, key);
        } catch (ApiError unavailable) {
            ObjectNode n = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", key.kind());
            n.putObject("metadata").put("name", key.name()).put("namespace", key.namespace())
                .put("resourceVersion", e.getResourceVersion()).put("generation", e.getGeneration());
            return n;
        }
    }

    /** The current object as JSON, through the router (so it works for keys owned elsewhere). */
    private JsonNode current(String authorization, ResourceKey key) {
        String path = "/api/v1/resources/" + key.kind() + "/" + key.namespace() + "/" + key.name();
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

    /**
     * The write's request id, echoed on the answer: the client's {@code X-Request-Id}, else a new UUID. It names the
     * write in its admission event and in messages only; answers are matched by an id the server generates.
     */
    static String requestId(Context ctx) {
        String given = ctx.header("X-Request-Id");
        String id = given != null && !given.isBlank() && given.length() <= 200 ? given : UUID.randomUUID().toString();
        ctx.header("X-Request-Id", id);
        return id;
    }

    private static String trimmed(String s) {
        return s == null ? null : s.trim();
    }
}
