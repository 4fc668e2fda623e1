package io.statesync.rest.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.HealthStatus;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.Diagnosis;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.rest.ApiError;
import io.statesync.rest.LabelSelector;
import io.statesync.server.ServerConfig;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.ResourceDiagnoser;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchPosition;

/**
 * The read handlers of {@code /api/v1/resources}: point reads and lists from the resource view, diffs and diagnoses
 * from the key's owner.
 */
public final class ResourceApi {

    /** Where a point read was answered from: {@code view} (the resource view) or {@code store} (the owner's store). */
    public static final String SOURCE_HEADER = "X-Statesync-Source";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final int DEFAULT_LIMIT = 500;
    private static final int MAX_LIMIT = 5_000;
    /** How long a read waits for the view to catch up with the committed end before it asks the owner instead. */
    private static final Duration CATCH_UP_WAIT = Duration.ofSeconds(5);

    private final KeyRouter router;
    private final ResourceView view;
    private final Function<String, ReconcilePolicy> policies;
    private final Supplier<WatchPosition> committedEndOffsets;
    private final AnsweredWrites answeredWrites;
    private final RenderedJsonCache renderedJson;
    private final long listMaxBytes;

    public ResourceApi(AppConfig config, KeyRouter router, ResourceView view, RenderedJsonCache renderedJson,
                       Function<String, ReconcilePolicy> policies, Supplier<WatchPosition> committedEndOffsets,
                       AnsweredWrites answeredWrites) {
        this.listMaxBytes = config.getLong(ServerConfig.LIST_MAX_BYTES);
        this.answeredWrites = answeredWrites;
        this.renderedJson = renderedJson;
        this.committedEndOffsets = committedEndOffsets;
        this.router = router;
        this.view = view;
        this.policies = policies;
    }

    /**
     * A point read, from this instance's resource view. When the view is older than the caller needs (a
     * {@code consistency=owner} read, or a version the caller or this instance's own write answered), the view first
     * catches up with the resources topic's committed end as it stands now, as a Kubernetes API server serves a
     * consistent read from its watch cache. Only when the view cannot answer (still loading, or not catching up in
     * time) does the read go to the key's owner store. See docs/rest.md, "Point reads".
     */
    public void get(Context ctx) throws InterruptedException {
        ResourceKey key = Requests.key(ctx);
        String k = key.toString();
        String ifNoneMatch = ResourceVersions.unquote(ctx.header("If-None-Match"));
        if (viewAnswers()) {
            boolean consistent = consistentRead(ctx);
            long needed = needed(ctx, k, ifNoneMatch);
            StoredResource current = view.get(k);
            if (!consistent && newEnough(current, needed)) {
                serveFromView(ctx, k, ifNoneMatch, current);
                return;
            }
            if (view.awaitPosition(committedEndOffsets.get(), CATCH_UP_WAIT)) {
                serveFromView(ctx, k, ifNoneMatch, view.get(k));
                return;
            }
        }
        serveRouted(ctx, ifNoneMatch, (st, r) -> renderedJson.json(k, r));
    }

    /** {@code consistency=owner}, or a request another instance forwarded here because its view was not enough. */
    private static boolean consistentRead(Context ctx) {
        String consistency = ctx.queryParam("consistency");
        if (consistency != null && !consistency.equals("owner")) {
            throw ApiError.badRequest("consistency must be 'owner' or absent");
        }
        return consistency != null || ForwardCredential.isForwarded(ctx);
    }

    /** The version the read must not be older than: the caller's resourceVersion or If-None-Match, or our own write. */
    private long needed(Context ctx, String key, String ifNoneMatch) {
        long needed = answeredWrites.needed(key);
        String rv = ctx.queryParam("resourceVersion");
        if (rv != null && !rv.isEmpty()) {
            long v = ResourceVersions.parse(rv);
            if (v < 0) {
                throw ApiError.badRequest("resourceVersion must be a resourceVersion this API returned (digits)");
            }
            needed = Math.max(needed, v);
        }
        return Math.max(needed, ResourceVersions.parse(ifNoneMatch));
    }

    private boolean viewAnswers() {
        return view.ready() && router.streamsRunning();
    }

    private static boolean newEnough(StoredResource r, long needed) {
        return r == null ? needed == 0 || needed == AnsweredWrites.DELETED : needed == 0 || r.version() >= needed;
    }

    /** Answers {@code r}, the view's copy of {@code key} (null when the view has none). */
    private void serveFromView(Context ctx, String key, String ifNoneMatch, StoredResource r) {
        answeredWrites.seen(key, r == null ? AnsweredWrites.DELETED : r.version());
        ctx.header(KeyRouter.SERVED_BY_HEADER, router.self());
        ctx.header(SOURCE_HEADER, "view");
        if (r == null) {
            throw ApiError.notFound(key + " does not exist");
        }
        String version = r.resourceVersion();
        ctx.header("ETag", Requests.quote(version));
        if (version != null && version.equals(ifNoneMatch)) {
            ctx.status(304);
            return;
        }
        writeBody(ctx, "application/json", renderedJson.json(r));
    }

    public void diff(Context ctx) {
        serveRouted(ctx, null, (st, r) -> {
            ObjectNode n = JSON.objectNode();
            n.put("apiVersion", ResourceJson.API_VERSION).put("kind", "Diff");
            n.set("metadata", ResourceJson.toJson(r).get("metadata"));
            n.put("syncStatus", r.getStatus().getSyncStatus().name());
            n.set("items", ResourceJson.diff(r.getStatus().getDiff()));
            ResourceJson.putObserved(n, st);
            ResourceJson.putLastCorrection(n, st);
            return ResourceJson.toBytes(n);
        });
    }

    public void diagnosis(Context ctx) {
        serveRouted(ctx, null, (st, r) -> {
            Diagnosis d = ResourceDiagnoser.diagnose(st, r, policies.apply(r.getMetadata().getKind()), Instant.now());
            ObjectNode n = DiagnosisJson.toJson(d);
            n.set("metadata", ResourceJson.toJson(r).get("metadata"));
            n.put("syncStatus", r.getStatus().getSyncStatus().name());
            n.set("health", ResourceJson.health(r.getStatus().getHealth()));
            return ResourceJson.toBytes(n);
        });
    }

    /** The JSON body of an owner's answer, as bytes so that a cached rendering is written as it is. */
    interface Renderer {
        byte[] render(ReconcileState state, Resource resource);
    }


    private void serveRouted(Context ctx, String ifNoneMatch, Renderer renderer) {
        ResourceKey key = Requests.key(ctx);
        KeyRouter.Outcome o = router.route(key.toString(), Requests.pathAndQuery(ctx), ctx.header("Authorization"),
            ForwardCredential.isForwarded(ctx));
        if (o instanceof KeyRouter.Forwarded f) {
            relay(ctx, f);
            return;
        }
        KeyRouter.Local local = (KeyRouter.Local) o;
        ctx.header(KeyRouter.SERVED_BY_HEADER, router.self());
        ctx.header(SOURCE_HEADER, "store");
        // Before the 404 too: a copy that lags may not have the key yet, and must not look like the owner saying so.
        if (local.stale()) {
            ctx.header(KeyRouter.STALE_HEADER, "true");
        }
        Resource r = local.state() == null ? null : local.state().getResource();
        if (r == null) {
            throw ApiError.notFound(key + " does not exist");
        }
        String version = r.getMetadata().getResourceVersion();
        ctx.header("ETag", Requests.quote(version));
        if (version != null && version.equals(ifNoneMatch)) {
            ctx.status(304);
            return;
        }
        writeBody(ctx, "application/json", renderer.render(local.state(), r));
    }

    /**
     * Writes a ready body straight to the response: {@code ctx.result(byte[])} wraps it in a stream that Javalin
     * copies through its own buffer afterwards, a real share of a cached point read's server time.
     */
    static void writeBody(Context ctx, String contentType, byte[] body) {
        ctx.contentType(contentType);
        // Javalin answers 304 itself when a result's ETag matches If-None-Match (a relayed owner's answer relies on
        // it); a body written here bypasses that, so the same rule is applied here.
        String etag = ctx.res().getHeader("ETag");
        if (ctx.statusCode() == 200 && etag != null && etag.equals(ctx.header("If-None-Match"))) {
            ctx.status(304);
            return;
        }
        // Javalin applies its status when it writes a result; a body written here commits the response first.
        ctx.res().setStatus(ctx.statusCode());
        ctx.res().setContentLength(body.length);
        try {
            ctx.res().getOutputStream().write(body);
        } catch (IOException e) {
            // The client went away; there is nobody left to answer.
            throw new UncheckedIOException(e);
        }
    }

    private static void relay(Context ctx, KeyRouter.Forwarded f) {
        ctx.status(f.status());
        if (f.etag() != null) {
            ctx.header("ETag", f.etag());
        }
        if (f.retryAfter() != null) {
            ctx.header("Retry-After", f.retryAfter());
        }
        if (f.servedBy() != null) {
            ctx.header(KeyRouter.SERVED_BY_HEADER, f.servedBy());
        }
        if (f.stale()) {
            ctx.header(KeyRouter.STALE_HEADER, "true");
        }
        writeBody(ctx, f.contentType(), f.body());
    }

    public void list(Context ctx) throws InterruptedException {
        Predicate<StoredResource> filter = filter(ctx.queryParam("kind"), ctx.queryParam("namespace"),
            ctx.queryParam("labelSelector"), ctx.queryParam("syncStatus"), ctx.queryParam("health"));
        int limit = limit(ctx.queryParam("limit"));
        ContinueToken from = ContinueToken.decode(ctx.queryParam("continue"));
        requireView();
        // Read-your-writes: the view first catches up with what was committed when the request arrived.
        if (!view.awaitPosition(committedEndOffsets.get(), CATCH_UP_WAIT)) {
            StaleAnswers.mark(ctx);
        }
        // A page past list.max.bytes is cut short; its continue token leads on, as a short page under limit does.
        ResourceView.Page page = view.list(filter, from == null ? null : from.afterKey(), limit, listMaxBytes);
        // Every page carries the first page's position, so a watch from it can repeat but never miss a change.
        WatchPosition position = from == null ? page.position() : from.position();
        ObjectNode out = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", "ResourceList");
        ObjectNode meta = out.putObject("metadata").put("resourceVersion", position.encode());
        if (page.nextKey() != null) {
            meta.put("continue", new ContinueToken(page.nextKey(), position).encode());
        } else {
            meta.putNull("continue");
        }
        ArrayNode items = out.putArray("items");
        page.items().forEach(r -> items.add(ResourceJson.toJson(r.resource())));
        ctx.json(out);
    }

    private void requireView() {
        if (!view.ready()) {
            throw ApiError.unavailable("the resource view is still loading", 1);
        }
    }

    /** {@link #filter(String, String, String, String, String)} without a health filter. */
    public static Predicate<StoredResource> filter(String kind, String namespace, String selector, String syncStatus) {
        return filter(kind, namespace, selector, syncStatus, null);
    }

    /**
     * The list and watch filter; a bad selector, syncStatus or health is a 400. Kind, namespace and syncStatus are
     * tested on the stored fields; only a label selector on a labelled object, or a health filter on an object that
     * passed the others, decodes it.
     */
    public static Predicate<StoredResource> filter(String kind, String namespace, String selector, String syncStatus,
                                                   String health) {
        LabelSelector labels;
        try {
            labels = LabelSelector.parse(selector);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("labelSelector: " + e.getMessage());
        }
        SyncStatus status = enumParam("syncStatus", syncStatus, SyncStatus.values());
        HealthStatus healthStatus = enumParam("health", health, HealthStatus.values());
        boolean anyLabels = !labels.requirements().isEmpty();
        return r -> (blank(kind) || r.isKind(kind))
            && (blank(namespace) || r.isInNamespace(namespace))
            && (status == null || r.syncStatus() == status)
            && (!anyLabels || labels.matches(r.hasLabels() ? r.resource().getMetadata().getLabels() : Map.of()))
            && (healthStatus == null || healthOf(r) == healthStatus);
    }

    private static HealthStatus healthOf(StoredResource r) {
        ResourceStatus s = r.resource().getStatus();
        return s == null || s.getHealth() == null ? HealthStatus.Unknown : s.getHealth().getStatus();
    }

    /** The constant named {@code s} (any case), null when blank; another name is a 400 that lists them. */
    private static <E extends Enum<E>> E enumParam(String param, String s, E[] values) {
        if (blank(s)) {
            return null;
        }
        for (E v : values) {
            if (v.name().equalsIgnoreCase(s)) {
                return v;
            }
        }
        throw ApiError.badRequest(param + " must be one of " + java.util.Arrays.stream(values).map(Enum::name)
            .collect(java.util.stream.Collectors.joining(", ")));
    }

    private static int limit(String s) {
        if (blank(s)) {
            return DEFAULT_LIMIT;
        }
        try {
            int n = Integer.parseInt(s.trim());
            if (n >= 1 && n <= MAX_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the 400
        }
        throw ApiError.badRequest("limit must be a whole number from 1 to " + MAX_LIMIT);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** The opaque {@code continue} token: the last key served and the first page's position. */
    record ContinueToken(String afterKey, WatchPosition position) {
        String encode() {
            ObjectNode n = JSON.objectNode().put("k", afterKey).put("p", position.encode());
            return Base64.getUrlEncoder().withoutPadding().encodeToString(n.toString().getBytes(StandardCharsets.UTF_8));
        }

        static ContinueToken decode(String token) {
            if (blank(token)) {
                return null;
            }
            try {
                JsonNode n = BodyReader.parse(Base64.getUrlDecoder().decode(token.trim()));
                return new ContinueToken(n.get("k").asText(), WatchPosition.decode(n.get("p").asText()));
            } catch (RuntimeException e) {
                throw ApiError.badRequest("continue is not a token from a previous list");
            }
        }
    }

}
