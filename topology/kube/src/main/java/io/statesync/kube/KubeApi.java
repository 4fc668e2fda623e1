package io.statesync.kube;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.statesync.kube.internal.Collections;
import io.statesync.kube.internal.Discovery;
import io.statesync.kube.internal.KindCatalog;
import io.statesync.kube.internal.KubeEvents;
import io.statesync.kube.internal.KubePaths;
import io.statesync.kube.internal.KubeStatus;
import io.statesync.kube.internal.OpenApi;
import io.statesync.kube.internal.ResourceHandlers;
import io.statesync.rest.ApiError;
import io.statesync.rest.RestContext;
import io.statesync.rest.RestExtension;
import io.statesync.rest.TokenAuth;

/**
 * The Kubernetes API of an instance: group {@code statesync.io}, version {@code v1}, every kind namespaced; the
 * CustomResourceDefinitions of {@code apiextensions.k8s.io/v1}, and every group, version and kind they define; with
 * discovery, OpenAPI, read-only Events, Tables and Status errors, so that kubectl, informers and Kubernetes clients
 * work against statesync (docs/kubernetes-api.md). Found by the server on the class path; it serves the same
 * objects as the server's own API, through the same admission, view and watch.
 */
public final class KubeApi implements RestExtension {

    private static final String GV = "/apis/{group}/{version}";
    private static final String NS = GV + "/namespaces/{namespace}/{plural}";
    /** A cluster-scoped kind's objects, and a namespaced kind's objects across all namespaces. */
    private static final String ALL = GV + "/{plural}";

    @Override
    public void register(RoutesConfig routes, RestContext context) {
        KindCatalog kinds = new KindCatalog(context);
        Discovery discovery = new Discovery(kinds);
        OpenApi openApi = new OpenApi(kinds);
        ResourceHandlers objects = new ResourceHandlers(context, kinds);
        Collections collections = new Collections(context, kinds);
        KubeEvents events = new KubeEvents(context);
        routes.get("/version", discovery::version);
        routes.get("/api", discovery::api);
        routes.get("/api/v1", discovery::coreV1);
        routes.get("/apis", discovery::apis);
        routes.get("/openapi/v2", openApi::v2);
        routes.get("/openapi/v3", openApi::v3Index);
        routes.get("/openapi/v3/apis/{group}/{version}", openApi::v3Group);
        routes.get("/openapi/v3/api/v1", openApi::v3Core);
        // The read-only events group first: the generic group routes below would take its paths otherwise.
        routes.get("/apis/events.k8s.io", discovery::eventsGroup);
        routes.get("/apis/" + KubePaths.EVENTS_GROUP_VERSION, discovery::eventsGroupVersion);
        routes.get("/apis/" + KubePaths.EVENTS_GROUP_VERSION + "/namespaces/{namespace}/events", events::eventsApi);
        routes.get("/apis/" + KubePaths.EVENTS_GROUP_VERSION + "/events", events::eventsApi);
        routes.get("/api/v1/namespaces/{namespace}/events", events::core);
        routes.get("/api/v1/events", events::core);
        // Core v1 Namespace, cluster-scoped; like Kubernetes, without deletecollection.
        objectRoutes(routes, "/api/v1/namespaces", objects, collections, false);
        routes.get("/apis/{group}", discovery::group);
        routes.get(GV, discovery::groupVersion);
        objectRoutes(routes, NS, objects, collections, true);
        objectRoutes(routes, ALL, objects, collections, true);
        // Watches are HTTP streams only, as kubectl and client-go read them: the server's watch stream writes to an HTTP
        // response. A client that asks for a WebSocket first (fabric8 does) is answered as a server without WebSocket
        // support answers it, as the plain GET of a watch that ended before its first event; fabric8 takes that as "no
        // WebSocket here" and opens the HTTP stream at once, where a 5xx would have it retry the upgrade with backoff
        // first. The refusals the GET would get come first, from the same checks, so that a refused watch fails at
        // once instead of falling back to a request refused again; only a reader learns of the caps. No before-handler
        // runs for an upgrade: the token is checked here.
        for (String path : new String[] {ALL, NS, "/api/v1/namespaces", "/api/v1/namespaces/{namespace}/events", "/api/v1/events"}) {
            // The endpoint only routes the upgrade to the handler below, which never lets it happen.
            routes.ws(path, ws -> ws.onConnect(session -> session.closeSession()));
            routes.wsBeforeUpgrade(path, ctx -> {
                try {
                    context.auth().require(ctx.header("Authorization"), TokenAuth.Role.READER);
                    context.refuseWatchPastCaps(ctx);
                } catch (ApiError refused) {
                    answerUpgrade(ctx, refused.code(), refused.retryAfterSeconds(), KubeStatus.of(refused,
                        ctx.pathParamMap().get("group"), ctx.pathParamMap().get("plural"), null).toString());
                    return;
                }
                answerUpgrade(ctx, 200, null, "");
            });
        }
    }

    /**
     * The verbs on a collection and its objects: {@code collection} is a namespace's or, for a cluster-scoped kind,
     * the cluster's; the handlers refuse a path whose scope is not the kind's.
     */
    private static void objectRoutes(RoutesConfig routes, String collection, ResourceHandlers objects, Collections collections,
                                     boolean deleteCollection) {
        routes.get(collection, collections::list);
        routes.post(collection, objects::create);
        if (deleteCollection) {
            routes.delete(collection, collections::deleteCollection);
        }
        routes.get(collection + "/{name}", objects::get);
        routes.put(collection + "/{name}", objects::update);
        routes.patch(collection + "/{name}", objects::patch);
        routes.delete(collection + "/{name}", objects::delete);
        routes.get(collection + "/{name}/status", objects::statusGet);
        routes.put(collection + "/{name}/status", objects::statusWrite);
        routes.patch(collection + "/{name}/status", objects::statusWrite);
    }

    /**
     * Answers an upgrade as a plain HTTP request, {@code code} with {@code body} (a Status, or nothing), and skips the
     * upgrade. Written here since Javalin's error handling sends no body for an upgrade. Without the subprotocol
     * Javalin echoes ahead of the handlers, since no WebSocket follows. The HTTP session Javalin opens for every upgrade
     * is the REST server's to drop, for every path alike (see RestServer).
     */
    private static void answerUpgrade(Context ctx, int code, Integer retryAfterSeconds, String body) throws java.io.IOException {
        jakarta.servlet.http.HttpServletResponse res = ctx.res();
        res.setStatus(code);
        res.setHeader("Sec-WebSocket-Protocol", null);
        if (retryAfterSeconds != null) {
            res.setHeader("Retry-After", String.valueOf(retryAfterSeconds));
        }
        res.setContentType("application/json");
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        res.setContentLength(bytes.length);
        res.getOutputStream().write(bytes);
        res.flushBuffer();
        ctx.skipRemainingHandlers();
    }

    /** Every error under the Kubernetes API's paths is a Status object, auth failures and unknown paths included. */
    @Override
    public boolean renderError(Context ctx, ApiError error) {
        if (!KubePaths.isKubePath(ctx.path())) {
            return false;
        }
        ctx.status(error.code());
        if (error.retryAfterSeconds() != null) {
            ctx.header("Retry-After", String.valueOf(error.retryAfterSeconds()));
        }
        ctx.json(KubeStatus.of(error, ctx.pathParamMap().get("group"), ctx.pathParamMap().get("plural"),
            ctx.pathParamMap().get("name")));
        return true;
    }
}
