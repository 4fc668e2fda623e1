package io.statesync.kube.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;

import io.statesync.rest.ApiError;
import io.statesync.rest.RestContext;
import io.statesync.server.ServerConfig;
import io.statesync.topology.ResourceKey;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;

/**
 * The verbs on a collection, in one namespace or across all: list (with label and field selectors, {@code limit} and
 * {@code continue}, {@code resourceVersion} and {@code resourceVersionMatch}), watch ({@code watch=true}) and
 * deletecollection. A list's objects carry tokens that name their key (docs/kubernetes-api.md, "Positions").
 */
public final class Collections {

    private final RestContext context;
    private final KindCatalog kinds;

    public Collections(RestContext context, KindCatalog kinds) {
        this.context = context;
        this.kinds = kinds;
    }

    /** A list or watch, in one namespace, across all, or of a cluster-scoped kind. */
    public void list(Context ctx) throws IOException, InterruptedException {
        KindCatalog.Served served = kinds.resolve(ctx);
        String namespace = KindCatalog.namespace(ctx, served, true);
        Predicate<StoredResource> filter = Selectors.filter(served, namespace, ctx.queryParam("labelSelector"),
            ctx.queryParam("fieldSelector"));
        if (KubePaths.flag(ctx.queryParam("watch"))) {
            new KubeWatch(context).watch(ctx, served, filter);
            return;
        }
        ListPage page = page(ctx, filter);
        List<ObjectNode> objects = new ArrayList<>(page.items().size());
        for (StoredResource r : page.items()) {
            objects.add(KubeObjects.of(served, r, KubeResourceVersion.token(page.position(), r.key(), r.resourceVersion())));
        }
        Tables.respond(ctx, served, objects, KubeResourceVersion.position(page.position()), page.continueToken(), false);
    }

    /** One page of a list, with the position its tokens carry (the first page's on every page) and the next token. */
    record ListPage(List<StoredResource> items, WatchPosition position, String continueToken) {
    }

    private ListPage page(Context ctx, Predicate<StoredResource> filter) throws InterruptedException {
        String rv = ctx.queryParam("resourceVersion");
        Continue from = Continue.decode(ctx.queryParam("continue"));
        // As Kubernetes' watch cache serves resourceVersion=0, "any version" lists are served whole, up to the budget;
        // a client that sent a limit follows continue tokens, so past the budget it gets pages all the same.
        boolean pageable = ctx.queryParam("limit") != null;
        int limit = "0".equals(rv) || !pageable ? Integer.MAX_VALUE : limit(ctx.queryParam("limit"));
        ResourceView view = context.caughtUpView(ctx);
        if (!KubeResourceVersion.isAny(rv) && from == null) {
            requireServable(view, rv, ctx.queryParam("resourceVersionMatch"));
        }
        long maxBytes = context.config().getLong(ServerConfig.LIST_MAX_BYTES);
        ResourceView.Page page = view.list(filter, from == null ? null : from.afterKey(), limit, maxBytes);
        if (!pageable && page.nextKey() != null) {
            // A client that sent no limit does not expect a continue token and would take a partial list for the whole.
            throw ApiError.badRequest("the list is larger than list.max.bytes=" + maxBytes + " bytes; list in pages:"
                + " send limit (e.g. limit=500) and follow metadata.continue, as kubectl --chunk-size and informers do");
        }
        WatchPosition position = from == null ? page.position() : from.position();
        String next = page.nextKey() == null ? null : new Continue(page.nextKey(), position).encode();
        return new ListPage(page.items(), position, next);
    }

    /**
     * A list at a given resourceVersion: "not older than" (the default) is what the caught-up view serves; "Exact" is
     * served only for the view's current position, since the view keeps no older states (410 Expired otherwise).
     */
    private static void requireServable(ResourceView view, String rv, String match) {
        WatchCursor asked = KubeResourceVersion.cursor(rv);
        WatchPosition now = view.position();
        if ("Exact".equals(match) && !now.equals(asked.position())) {
            throw ApiError.gone("resourceVersionMatch=Exact is served for the current resourceVersion only; list without it");
        }
        if (match != null && !match.isEmpty() && !match.equals("Exact") && !match.equals("NotOlderThan")) {
            throw ApiError.badRequest("resourceVersionMatch: Unsupported value: \"" + match + "\"");
        }
    }

    /** A list's {@code limit}: 0 or absent for no limit; anything but a whole number is 400. */
    static int limit(String s) {
        if (s == null) {
            return Integer.MAX_VALUE;
        }
        try {
            int n = Integer.parseInt(s.trim());
            return n <= 0 ? Integer.MAX_VALUE : n;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("limit must be a whole number");
        }
    }

    /**
     * DELETE on a collection: each selected object is deleted through admission, a page of {@code list.max.bytes} at a
     * time; the answer lists the objects of the first page and counts the rest in {@code remainingItemCount}, so
     * neither the work nor the answer holds more than the list budget at once.
     */
    public void deleteCollection(Context ctx) throws InterruptedException {
        KindCatalog.Served served = kinds.resolve(ctx);
        KindCatalog.Kind kind = served.kind();
        String namespace = KindCatalog.namespace(ctx, served, false);
        Predicate<StoredResource> filter = Selectors.filter(served, namespace, ctx.queryParam("labelSelector"),
            ctx.queryParam("fieldSelector"));
        DeleteOptions options = DeleteOptions.of(ctx, ResourceHandlers.body(ctx));
        ResourceView view = context.caughtUpView();
        long maxBytes = context.config().getLong(ServerConfig.LIST_MAX_BYTES);
        ResourceView.Page page = view.list(filter, null, Integer.MAX_VALUE, maxBytes);
        ObjectNode out = KubeObjects.list(served, KubeResourceVersion.position(page.position()), null);
        long remaining = 0;
        for (boolean first = true; ; first = false) {
            for (StoredResource r : page.items()) {
                ResourceKey key = ResourceKey.parse(r.key());
                options.delete(context, kind, key, context.requestId(ctx) + "-" + key.name());
                if (first) {
                    ResourceHandlers.items(out).add(ShownStatus.of(served,
                        KubeObjects.of(served, r, KubeResourceVersion.token(page.position(), r.key(), r.resourceVersion()))));
                } else {
                    remaining++;
                }
            }
            if (page.nextKey() == null) {
                break;
            }
            page = view.list(filter, page.nextKey(), Integer.MAX_VALUE, maxBytes);
        }
        if (remaining > 0) {
            ((ObjectNode) out.get("metadata")).put("remainingItemCount", remaining);
        }
        ctx.json(out);
    }

    /** The opaque continue token: the last key served and the first page's position. */
    record Continue(String afterKey, WatchPosition position) {

        String encode() {
            ObjectNode n = ResourceHandlers.MAPPER.createObjectNode().put("k", afterKey).put("p", position.encode());
            return Base64.getUrlEncoder().withoutPadding().encodeToString(n.toString().getBytes(StandardCharsets.UTF_8));
        }

        static Continue decode(String token) {
            if (token == null || token.isBlank()) {
                return null;
            }
            try {
                JsonNode n = ResourceHandlers.MAPPER.readTree(Base64.getUrlDecoder().decode(token.trim()));
                return new Continue(n.get("k").asText(), WatchPosition.decode(n.get("p").asText()));
            } catch (IOException | RuntimeException e) {
                throw ApiError.badRequest("continue is not a token from a previous list");
            }
        }
    }
}
