package io.statesync.kube.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.rest.ApiError;
import io.statesync.rest.RestContext;
import io.statesync.rest.WatchFormat;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;

/**
 * {@code watch=true} on a collection: the server's watch stream ({@link RestContext#watch}) written as Kubernetes'
 * newline-delimited {@code {"type","object"}} events. Every object's resourceVersion is the cursor right after its
 * event, so a client resuming from the last object it received gets neither a gap nor a duplicate. BOOKMARKs only
 * when the client allows them; the one that ends the initial events carries {@code k8s.io/initial-events-end} when
 * the client asked for {@code sendInitialEvents}. A position that cannot be replayed is an ERROR event with a 410
 * Expired Status, as Kubernetes sends it, so that informers list again.
 */
final class KubeWatch {

    private final RestContext context;

    KubeWatch(RestContext context) {
        this.context = context;
    }

    void watch(Context ctx, KindCatalog.Served served, Predicate<StoredResource> filter) throws IOException, InterruptedException {
        String initial = ctx.queryParam("sendInitialEvents");
        Format format = new Format(served, KubePaths.flag(ctx.queryParam("allowWatchBookmarks")), KubePaths.flag(initial),
            tablePolicy(ctx));
        long deadline = context.deadline(ctx.queryParam("timeoutSeconds"));
        try {
            context.watch(ctx, from(ctx.queryParam("resourceVersion"), initial), filter, deadline, format);
        } catch (ApiError e) {
            if (e.code() != 410) {
                throw e;
            }
            expired(ctx, format, e);
        }
    }

    /** The includeObject policy when the client asks for Tables (kubectl get --watch does), else null. */
    private static String tablePolicy(Context ctx) {
        String accept = ctx.header("Accept");
        if (accept == null || !accept.contains("as=Table")) {
            return null;
        }
        String include = ctx.queryParam("includeObject");
        return include == null ? "Metadata" : include;
    }

    /**
     * Where the watch starts: the current objects first for {@code sendInitialEvents=true} or without a position
     * (as Kubernetes starts an unversioned watch), now for {@code sendInitialEvents=false} without one, else the cursor.
     */
    private WatchCursor from(String rv, String initial) throws InterruptedException {
        if (KubePaths.flag(initial)) {
            return null;
        }
        if (KubePaths.explicitlyFalse(initial) && KubeResourceVersion.isAny(rv)) {
            return new WatchCursor(context.caughtUpView().position(), null);
        }
        return KubeResourceVersion.cursor(rv);
    }

    private static void expired(Context ctx, Format format, ApiError e) throws IOException {
        ctx.status(200);
        ctx.contentType(format.contentType());
        ctx.res().getOutputStream().write(format.error(410, "Expired", e.getMessage()));
        ctx.res().getOutputStream().flush();
    }

    /**
     * Kubernetes' watch encoding: one JSON event per line; with {@code table} (the includeObject policy) each object is
     * a one-row Table, as kubectl get --watch asks for.
     */
    private record Format(KindCatalog.Served served, boolean bookmarks, boolean initialEvents, String table) implements WatchFormat {

        @Override
        public String contentType() {
            return "application/json";
        }

        @Override
        public byte[] opening() {
            return new byte[0];
        }

        @Override
        public byte[] event(String type, StoredResource object, WatchCursor at) {
            String token = KubeResourceVersion.token(at.position(), at.afterKey(), object.resourceVersion());
            ObjectNode o = KubeObjects.of(served, object, token);
            return line(type, table == null ? ShownStatus.of(served, o) : Tables.table(served, java.util.List.of(o), token, null, table));
        }

        @Override
        public byte[] bookmark(WatchPosition at, boolean initialEnd) {
            if (!bookmarks) {
                return null;
            }
            ObjectNode object = ResourceHandlers.MAPPER.createObjectNode().put("apiVersion", served.apiVersion())
                .put("kind", served.kind().kindName());
            ObjectNode meta = object.putObject("metadata").put("resourceVersion", at.encode());
            if (initialEnd && initialEvents) {
                meta.putObject("annotations").put("k8s.io/initial-events-end", "true");
            }
            return line("BOOKMARK", object);
        }

        @Override
        public byte[] error(int code, String reason, String message) {
            String kubeReason = code == 410 ? "Expired" : code == 429 ? "TooManyRequests" : reason;
            return line("ERROR", KubeStatus.of(code, kubeReason, message, null, null));
        }

        @Override
        public byte[] heartbeat() {
            return null;
        }

        private static byte[] line(String type, ObjectNode object) {
            ObjectNode event = ResourceHandlers.MAPPER.createObjectNode().put("type", type);
            event.set("object", object);
            return (event + "\n").getBytes(StandardCharsets.UTF_8);
        }
    }
}
