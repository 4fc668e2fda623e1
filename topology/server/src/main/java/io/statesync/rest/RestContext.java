package io.statesync.rest;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.PatchType;
import io.statesync.avro.Resource;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.rest.internal.Requests;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.rest.internal.WaitingAnswers;
import io.statesync.rest.internal.WatchHandler;
import io.statesync.rest.internal.PatchRequests;
import io.statesync.rest.store.ConvergenceWaits;
import io.statesync.rest.store.ResourceStore;
import io.statesync.topology.ResourceKey;
import io.statesync.view.EventHistory;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;

/**
 * What a {@link RestExtension} may use of one instance: its resource store (writes and dry runs), thin facades over the
 * resource view, watch streams, event history, kind policies and auth, so that every API the instance serves shares
 * one implementation of each.
 */
public final class RestContext {

    private final AppConfig config;
    private final TokenAuth auth;
    private final ResourceView view;
    private final EventHistory events;
    private final ResourceStore store;
    private final ConvergenceWaits waits;
    private final WatchHandler watches;
    private final Function<String, ReconcilePolicy> policies;
    private final Supplier<Map<String, KindPolicy>> kindPolicies;
    private final Supplier<WatchPosition> committedEnd;

    /** Built by the server; the arguments are its own parts. */
    RestContext(AppConfig config, TokenAuth auth, ResourceView view, EventHistory events, ResourceStore store,
                ConvergenceWaits waits, WatchHandler watches, Function<String, ReconcilePolicy> policies,
                Supplier<Map<String, KindPolicy>> kindPolicies, Supplier<WatchPosition> committedEnd) {
        this.config = config;
        this.auth = auth;
        this.view = view;
        this.events = events;
        this.store = store;
        this.waits = waits;
        this.watches = watches;
        this.policies = policies;
        this.kindPolicies = kindPolicies;
        this.committedEnd = committedEnd;
    }

    public AppConfig config() {
        return config;
    }

    public TokenAuth auth() {
        return auth;
    }

    /** The resource view behind lists, watches and fresh point reads. */
    public ResourceView view() {
        return view;
    }

    public EventHistory events() {
        return events;
    }

    /** The kind's reconcile policy (the defaults when it has none). */
    public ReconcilePolicy policy(String kind) {
        return policies.apply(kind);
    }

    /** Every kind policy written, by kind, sorted. */
    public Map<String, KindPolicy> kindPolicies() {
        return new TreeMap<>(kindPolicies.get());
    }

    /**
     * The view once it has read what was committed when this was called (at most five seconds' wait), as a list
     * waits, so that it shows every write answered before; 503 while the view is loading.
     */
    /** The {@code Warning} header of an answer served from a view that did not catch up in time. */
    public static final String STALE_WARNING = io.statesync.rest.internal.StaleAnswers.WARNING;

    public ResourceView caughtUpView() throws InterruptedException {
        return caughtUpView(null);
    }

    /**
     * {@link #caughtUpView()}, marking {@code ctx}'s answer as possibly stale ({@code X-Statesync-Stale} and a
     * {@code Warning} 299) when the view did not catch up within the wait.
     */
    public ResourceView caughtUpView(io.javalin.http.Context ctx) throws InterruptedException {
        if (!view.ready()) {
            throw ApiError.unavailable("the resource view is still loading", 1);
        }
        if (!view.awaitPosition(committedEnd.get(), Duration.ofSeconds(5)) && ctx != null) {
            io.statesync.rest.internal.StaleAnswers.mark(ctx);
        }
        return view;
    }

    /** The desired state a document asks for, checked against {@code key} (400 naming a bad field). */
    public static DesiredState desired(ResourceKey key, JsonNode document, String expectedResourceVersion) {
        return ResourceJson.desired(key, document, expectedResourceVersion);
    }

    /** The desired state that carries a server-side patch; a merge patch's resourceVersion is its precondition. */
    public static DesiredState patch(ResourceKey key, PatchType type, JsonNode patch, String expectedResourceVersion) {
        return PatchRequests.of(key, type, patch, expectedResourceVersion);
    }

    /** A server-side apply of {@code config} by {@code fieldManager}, as {@code /api/v1} builds it (400 on a bad shape). */
    public static DesiredState apply(ResourceKey key, JsonNode config, String expectedResourceVersion, String fieldManager,
                                     boolean force) {
        return PatchRequests.apply(key, config, expectedResourceVersion, fieldManager, force);
    }

    /** An apply's body: one YAML or JSON document (400 naming the problem). */
    public static JsonNode applyDocument(byte[] body) {
        return io.statesync.rest.internal.BodyReader.applyDocument(body);
    }

    /** The write's field manager: the {@code fieldManager} parameter, else from the User-Agent (422 when invalid). */
    public static String fieldManager(io.javalin.http.Context ctx) {
        return io.statesync.rest.internal.FieldManagers.of(ctx);
    }

    /** An apply's field manager, which the {@code fieldManager} parameter must name (422 otherwise). */
    public static String applyFieldManager(io.javalin.http.Context ctx) {
        return io.statesync.rest.internal.FieldManagers.ofApply(ctx);
    }

    /** The {@code force} parameter of a patch: only an apply may set it (422 otherwise). */
    public static boolean force(io.javalin.http.Context ctx, boolean apply) {
        return io.statesync.rest.internal.Requests.force(ctx, apply);
    }

    /** The server's JSON form of a resource. */
    public static ObjectNode toJson(Resource resource) {
        return ResourceJson.toJson(resource);
    }

    /**
     * The store behind every write the instance serves: writes through admission, awaited and read back, deletes,
     * and their dry runs; refusals are thrown as {@link ApiError}.
     */
    public ResourceStore store() {
        return store;
    }

    /**
     * The wait a write asks for with {@code ?waitFor=} and {@code timeoutSeconds}, reserved before it is submitted:
     * null when it asks for none; 400 for an unknown condition or with a dry run, 429 past
     * {@code write.wait.max.waiting}. Give it back with {@code release()} when the write is refused.
     */
    public ConvergenceWaits.Wait reserveWait(Context ctx, boolean dryRun) {
        return waits.reserve(ctx.queryParam("waitFor"), ctx.queryParam("timeoutSeconds"), dryRun);
    }

    /**
     * Answers a write that waits, without holding a thread: {@code code} with {@code render} of the object once the
     * written generation converged, else 202 with the object as it stands at the timeout; the header
     * {@code X-Statesync-Wait} says which. {@code written} is the write's own answer, for an object deleted meanwhile.
     */
    public static void answerWhenConverged(Context ctx, ConvergenceWaits.Wait wait, String key,
                                           int code, JsonNode written, Function<StoredResource, JsonNode> render) {
        WaitingAnswers.answer(ctx, wait, key,
            WaitingAnswers.generation(written), code, written, render);
    }

    /**
     * A watch's {@code timeoutSeconds} as an epoch-millis deadline from now: as given, or a random one between
     * watch.min.request.timeout.ms and twice that when absent or 0, as the Kubernetes apiserver does; 400 when not a
     * whole number.
     */
    public long deadline(String timeoutSeconds) {
        return watches.deadline(timeoutSeconds);
    }

    /**
     * The write's request id, echoed on the answer as {@code X-Request-Id}: the client's, else a new UUID; the same
     * rule as every write of {@code /api/v1}.
     */
    public String requestId(Context ctx) {
        return Requests.requestId(ctx);
    }

    /**
     * Throws the 429 a watch of {@code ctx}'s client would get now past {@code watch.max.open} or
     * {@code watch.max.open.per.token}, without opening one.
     */
    public void refuseWatchPastCaps(Context ctx) {
        watches.refuseIfFull(ctx);
    }

    /**
     * Starts a watch on {@code ctx}'s response, the same stream as the server's own watch in another format: from
     * {@code from} (null: every current object first), until {@code deadline} (epoch millis). A position that
     * cannot be replayed is thrown as 410, and a watch past the caps as 429, before anything is written. The request
     * then goes asynchronous and this returns; the watch threads write the stream.
     */
    public void watch(Context ctx, WatchCursor from, Predicate<StoredResource> filter, long deadline, WatchFormat format)
        throws IOException, InterruptedException {
        watches.run(ctx, from, filter, deadline, format);
    }
}
