package io.statesync.rest.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.DesiredState;
import io.statesync.avro.PatchType;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.reconciler.Propagation;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.ConvergenceWaits;
import io.statesync.rest.store.ResourceStore;
import io.statesync.rest.store.WriteResult;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.WriteAdmission;

/**
 * The write handlers of {@code /api/v1/resources}: PUT, create-only POST and {@code If-None-Match: *}, server-side
 * PATCH, DELETE, each also as a dry run. Each reads its request into a desired state and answers the
 * {@link ResourceStore}'s result; the store submits, maps refusals, reads back and dry-runs.
 */
public final class WriteApi {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final AppConfig config;
    private final ResourceStore store;
    private final ConvergenceWaits waits;

    public WriteApi(AppConfig config, ResourceStore store, ConvergenceWaits waits) {
        this.config = config;
        this.store = store;
        this.waits = waits;
    }

    /** PUT: create or replace; {@code If-None-Match: *} makes it create-only, If-Match a compare-and-swap. */
    public void put(Context ctx) throws InterruptedException {
        ResourceKey key = Requests.key(ctx);
        JsonNode body = BodyReader.document(ctx, maxBodyBytes());
        DesiredState d = ResourceJson.desired(key, body, expectedVersion(ctx, body));
        d.setCreateOnly(Requests.ifNoneMatchAny(ctx));
        answer(ctx, key, d);
    }

    /** POST to a namespace's collection: create only, with the name in the body's metadata, as Kubernetes creates. */
    public void create(Context ctx) throws InterruptedException {
        JsonNode body = BodyReader.document(ctx, maxBodyBytes());
        JsonNode name = body.path("metadata").path("name");
        if (!name.isTextual() || name.asText().isEmpty()) {
            throw ApiError.badRequest("metadata.name is required: the name of the resource to create");
        }
        ResourceKey key;
        try {
            key = ResourceKey.of(ctx.pathParam("kind"), Requests.namespace(ctx), name.asText());
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        DesiredState d = ResourceJson.desired(key, body, null);
        d.setCreateOnly(true);
        answer(ctx, key, d);
    }

    /**
     * PATCH: the patch travels to admission, which applies it to the stored object in the owning task, so a patch
     * without a precondition never conflicts. If-Match, or a merge patch's metadata.resourceVersion, makes it a CAS.
     */
    public void patch(Context ctx) throws InterruptedException {
        ResourceKey key = Requests.key(ctx);
        PatchType type = Requests.patchType(ctx.contentType());
        if (type == PatchType.Apply) {
            JsonNode config = BodyReader.applyDocument(ctx, maxBodyBytes());
            answer(ctx, key, PatchRequests.apply(key, config, Requests.ifMatch(ctx), FieldManagers.ofApply(ctx),
                Requests.force(ctx, true)));
            return;
        }
        Requests.force(ctx, false);
        JsonNode patch = BodyReader.json(ctx, maxBodyBytes());
        answer(ctx, key, PatchRequests.of(key, type, patch, Requests.ifMatch(ctx)));
    }

    /** PUT .../status: replaces the reported status; If-Match or metadata.resourceVersion is the precondition. */
    public void putStatus(Context ctx) throws InterruptedException {
        ResourceKey key = Requests.key(ctx);
        JsonNode body = BodyReader.document(ctx, maxBodyBytes());
        status(ctx, key, new ResourceStore.StatusWrite(null, body, expectedVersion(ctx, body),
            body.path("metadata").path("uid").asText(null), FieldManagers.of(ctx)));
    }

    /**
     * PATCH .../status: a merge or JSON patch of the object as shown, of which the status is taken, or an applied
     * configuration whose status merges into it; a merge patch's or configuration's metadata.resourceVersion, or
     * If-Match, is the precondition.
     */
    public void patchStatus(Context ctx) throws InterruptedException {
        ResourceKey key = Requests.key(ctx);
        PatchType type = Requests.patchType(ctx.contentType());
        boolean apply = type == PatchType.Apply;
        JsonNode body = apply ? BodyReader.applyDocument(ctx, maxBodyBytes()) : BodyReader.json(ctx, maxBodyBytes());
        status(ctx, key, new ResourceStore.StatusWrite(type, body, expectedVersion(ctx, body),
            body.path("metadata").path("uid").asText(null), apply ? FieldManagers.ofApply(ctx) : FieldManagers.of(ctx)));
    }

    /** A status write's answer: the object as stored, and a Warning for what statesync owns and dropped. */
    private void status(Context ctx, ResourceKey key, ResourceStore.StatusWrite w) throws InterruptedException {
        if (Requests.dryRun(ctx)) {
            throw ApiError.badRequest("dryRun is not supported on the status subresource");
        }
        ResourceStore.StatusResult r = store.writeStatus(key, w, WriteAdmission.Limits.of(config), Requests.requestId(ctx),
            ctx.header("Authorization"));
        for (String warning : r.warnings()) {
            ctx.res().addHeader("Warning", "299 - \"" + warning + "\"");
        }
        ctx.header("ETag", Requests.quote(r.result().resourceVersion()));
        ctx.header("X-Statesync-Admission", r.result().reason());
        ctx.json(r.result().object());
    }

    /** DELETE, with If-Match or {@code ?resourceVersion=} as its precondition; answered with a Status. */
    public void delete(Context ctx) throws InterruptedException {
        ResourceKey key = Requests.key(ctx);
        String expected = Requests.ifMatch(ctx);
        if (expected == null) {
            expected = ctx.queryParam("resourceVersion");
        }
        Propagation propagation = propagationPolicy(ctx);
        boolean dryRun = Requests.dryRun(ctx);
        String requestId = Requests.requestId(ctx);
        WriteResult w = dryRun ? store.dryRunDelete(key, expected) : store.delete(key, expected, propagation, requestId);
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
            JsonNode options = BodyReader.json(ctx, maxBodyBytes());
            JsonNode p = options.path("propagationPolicy");
            given = p.isTextual() ? p.asText() : null;
        }
        String name = given;
        return Propagation.parse(name).filter(p -> name == null || p.name().equals(name))
            .orElseThrow(() -> ApiError.unprocessable("propagationPolicy: Unsupported value: \"" + name
                + "\": supported values: \"Background\", \"Foreground\", \"Orphan\""));
    }

    /**
     * The store's result of the write, or of its dry run, as status, ETag, admission reason and object; with
     * {@code ?waitFor=}, once the written generation converged or the wait timed out.
     */
    private void answer(Context ctx, ResourceKey key, DesiredState desired) throws InterruptedException {
        if (desired.getFieldManager() == null) {
            desired.setFieldManager(FieldManagers.of(ctx));
        }
        boolean dryRun = Requests.dryRun(ctx);
        String requestId = Requests.requestId(ctx);
        ConvergenceWaits.Wait wait = waits.reserve(ctx.queryParam("waitFor"), ctx.queryParam("timeoutSeconds"), dryRun);
        WriteResult w;
        try {
            w = dryRun ? store.dryRunWrite(key, desired) : store.write(key, desired, requestId, ctx.header("Authorization"));
        } catch (RuntimeException | InterruptedException refused) {
            if (wait != null) {
                wait.release();
            }
            throw refused;
        }
        if (wait != null) {
            ctx.header("X-Statesync-Admission", w.reason());
            WaitingAnswers.answer(ctx, wait, key.toString(), WaitingAnswers.generation(w.object()), w.code(), w.object(),
                r -> {
                    ctx.header("ETag", Requests.quote(r.resourceVersion()));
                    return ResourceJson.toJson(r.resource());
                });
            return;
        }
        ctx.status(w.code());
        if (w.resourceVersion() != null) {
            ctx.header("ETag", Requests.quote(w.resourceVersion()));
        }
        ctx.header("X-Statesync-Admission", w.reason());
        if (w.stale()) {
            StaleAnswers.mark(ctx);
        }
        ctx.json(w.object());
    }

    private String expectedVersion(Context ctx, JsonNode body) {
        String expected = Requests.ifMatch(ctx);
        if (expected == null && body.path("metadata").hasNonNull("resourceVersion")) {
            expected = body.path("metadata").get("resourceVersion").asText();
        }
        return expected;
    }

    private int maxBodyBytes() {
        return config.getInt(ServerConfig.HTTP_MAX_BODY_BYTES);
    }
}
