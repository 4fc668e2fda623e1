package io.statesync.rest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.javalin.Javalin;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.rest.internal.AdmissionClient;
import io.statesync.rest.internal.AnsweredWrites;
import io.statesync.rest.internal.BulkApi;
import io.statesync.rest.internal.CommittedEndReader;
import io.statesync.rest.internal.DependentsApi;
import io.statesync.rest.internal.EventsApi;
import io.statesync.rest.internal.ForwardCredential;
import io.statesync.rest.internal.HttpConnectors;
import io.statesync.rest.internal.HttpsConnector;
import io.statesync.rest.internal.InstanceHealth;
import io.statesync.rest.internal.JsonErrorHandler;
import io.statesync.rest.internal.KeyRouter;
import io.statesync.rest.internal.KindsApi;
import io.statesync.rest.internal.KindsStoreQuery;
import io.statesync.rest.internal.ContentDeleter;
import io.statesync.rest.internal.OpenApiDocument;
import io.statesync.rest.internal.OversizedBodies;
import io.statesync.rest.internal.ProbeServer;
import io.statesync.rest.internal.RenderedJsonCache;
import io.statesync.rest.internal.RequestAuthorizer;
import io.statesync.rest.internal.RequestMetrics;
import io.statesync.rest.internal.ResourceApi;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.rest.internal.ResourcesTopicQueries;
import io.statesync.rest.internal.RoutedAdmissionTransport;
import io.statesync.rest.internal.UiFiles;
import io.statesync.rest.internal.UnexpectedErrors;
import io.statesync.rest.internal.UriCheck;
import io.statesync.rest.internal.ViewObjects;
import io.statesync.rest.internal.WatchHandler;
import io.statesync.rest.internal.WriteApi;
import io.statesync.rest.store.ConvergenceWaits;
import io.statesync.rest.store.NamespaceLifecycle;
import io.statesync.rest.store.ResourceStore;
import io.statesync.rest.store.ResourceStrategy;
import io.statesync.topology.LoopSupervisor;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import io.statesync.view.EventHistory;
import io.statesync.view.ResourceView;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.session.NullSessionCache;
import org.eclipse.jetty.session.NullSessionDataStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST server of one instance (docs/contract.md, section 7). It binds before the streams start, so that
 * application.server is known, and reports not-ready until the streams are RUNNING, the stores answer, and the
 * admission reply consumer and the resource view are in place.
 *
 * <p>This class holds the routes and the order the instance's parts start and stop in; auth, request metrics,
 * readiness, the TLS connector, the topic and store queries and the draining of oversized bodies are each their own
 * class in {@code rest.internal}. Every error is {@code {"code","reason","message"}}.
 */
public final class RestServer {

    public static final String HTTP_TIMER = RequestMetrics.TIMER;
    private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);
    private static final String RES = "/api/v1/resources/{kind}/{namespace}/{name}";

    private final AppConfig config;
    private final PrometheusMeterRegistry registry;
    private final TopicNames topics;
    private final TokenAuth auth;
    /** The instances' own credential for the reads one forwards to another (never the caller's token). */
    private final ForwardCredential forwards;
    private final RequestAuthorizer authorizer;
    private final RequestMetrics requestMetrics;
    private final InstanceHealth health;
    private Javalin javalin;
    private volatile KafkaStreams streams;
    private TopologySerdes serdes;
    private KindsStoreQuery kinds;
    private AdmissionClient admission;
    private ResourceView view;
    private EventHistory events;
    /** Shared by point reads and watches, so an object read and watched is rendered once per version. */
    private final RenderedJsonCache renderedJson;
    private WatchHandler watch;
    private ConvergenceWaits waits;
    private KeyRouter router;
    private CommittedEndReader committedEnd;
    private ContentDeleter contentDeleter;
    private ProbeServer probes;
    private ResourcesTopicQueries resourcesTopic;
    /** Further APIs found on the class path (the Kubernetes API), in the order the service loader found them. */
    private final List<RestExtension> extensions = new ArrayList<>();

    public RestServer(AppConfig config, PrometheusMeterRegistry registry) {
        this.config = config;
        this.registry = registry;
        this.topics = new TopicNames(config.topicPrefix());
        this.auth = TokenAuth.fromConfig(config);
        this.forwards = ForwardCredential.fromConfig(config, auth.fingerprint());
        this.authorizer = new RequestAuthorizer(auth, forwards);
        this.requestMetrics = new RequestMetrics(registry);
        this.health = new InstanceHealth(() -> streams, () -> kinds.store(), () -> admission != null && admission.ready(),
            () -> view != null && view.ready());
        this.renderedJson = new RenderedJsonCache(RenderedJsonCache.DEFAULT_SLOTS, config.getLong(ServerConfig.VIEW_JSON_CACHE_BYTES),
            ResourceJson::toBytes);
    }

    /** Binds the port and then starts the clients of the topics: {@link #bind} followed by {@link #startClients}. */
    public void start() {
        bind();
        startClients();
    }

    /**
     * Registers the routes and binds the port, without touching a topic: until {@link #startClients} runs, writes,
     * lists and watches answer 503 and {@code /readyz} says why. An instance binds first because its streams
     * advertise the bound port, and binding need not wait for the topics to be verified.
     */
    public void bind() {
        String host = config.getString(ServerConfig.HTTP_HOST);
        authorizer.requireLoopbackWithoutAuth(host);
        serdes = new TopologySerdes(config);
        kinds = new KindsStoreQuery(() -> streams, serdes, topics, io.statesync.topology.PolicyCatalog.definitionLimits(config));
        admission = new AdmissionClient(config, topics, serdes);
        resourcesTopic = new ResourcesTopicQueries(config, topics.resources());
        view = new ResourceView(config, topics, serdes, resourcesTopic::facts);
        events = new EventHistory(config, topics, serdes);
        registerViewGauges();
        waits = new ConvergenceWaits(view,
            config.getLong(ServerConfig.WRITE_WAIT_MAX_TIMEOUT_SECONDS), config.getInt(ServerConfig.WRITE_WAIT_MAX_WAITING));
        watch = new WatchHandler(config, view, renderedJson, () -> resourcesTopic.offsets(OffsetSpec.earliest(),
            view.position().partitions()), registry);
        javalin = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            // Javalin's watcher is a non-daemon thread that sleeps five seconds to tell whether start() was called; this
            // instance starts right away, and the thread would only hold up the exit of a short-lived JVM.
            cfg.startup.startupWatcherEnabled = false;
            cfg.http.maxRequestSize = config.getInt(ServerConfig.HTTP_MAX_BODY_BYTES);
            cfg.requestLogger.http(requestMetrics::record);
            JsonErrorHandler errors = new JsonErrorHandler();
            cfg.jetty.modifyServer(server -> server.setErrorHandler(errors));
            cfg.jetty.modifyServletContextHandler(context -> {
                context.setErrorHandler(errors);
                // Nothing here reads an HTTP session (a bearer token authenticates each request), but Javalin opens one
                // for every WebSocket upgrade before any handler or token check runs, on any path, even one it answers
                // 404; Jetty's default cache would keep each for ever, heap any anonymous client could fill. It cannot
                // be refused (Javalin's upgrade reads the session it asks for), so this cache keeps none past its
                // request and no cookie or URL names one.
                SessionHandler sessions = context.getSessionHandler();
                NullSessionCache cache = new NullSessionCache(sessions);
                cache.setSessionDataStore(new NullSessionDataStore());
                sessions.setSessionCache(cache);
                sessions.setSessionTrackingModes(java.util.Set.of());
            });
            String keystore = config.getString(ServerConfig.HTTP_TLS_KEYSTORE_PATH);
            // Our own connector either way: Javalin's default one would read with Jetty's plain HTTP/1.1 connections
            // (HttpConnectors says why those are not used).
            if (!keystore.isEmpty()) {
                cfg.jetty.addConnector((server, http) -> HttpsConnector.create(server, http, config, keystore, host));
            } else {
                cfg.jetty.addConnector((server, http) -> HttpConnectors.plain(server, http, host, config.getInt(ServerConfig.HTTP_PORT)));
            }
            registerErrors(cfg.routes);
            cfg.routes.before(UriCheck::requireWellFormed);
            // A plain before-handler on the request path: beforeMatched would match the route a second time for every
            // request, a real share of a point read's server time. Unknown paths then need a token too, as in Kubernetes.
            cfg.routes.before(authorizer::authorize);
            registerRoutes(cfg.routes);
        });
        javalin.start(host, config.getInt(ServerConfig.HTTP_PORT));
        LOG.info("REST listening on {}://{}:{}", scheme(), host, port());
        startProbes(host);
    }

    private void registerViewGauges() {
        Gauge.builder("statesync.rest.view.resources", view, ResourceView::size)
            .description("Resources in this instance's REST view (lists, watches and fresh point reads)").register(registry);
        Gauge.builder("statesync.rest.view.snapshot.resources", view, ResourceView::restoredFromSnapshot)
            .description("Resources the REST view took from its local snapshot at start; 0 when it read the topic from the beginning")
            .register(registry);
        Gauge.builder("statesync.rest.view.heap.bytes", view, ResourceView::heapValueBytes).baseUnit("bytes")
            .description("Bytes of resources the REST view holds on the heap; the others are mapped from its snapshot file (view.spill.bytes)")
            .register(registry);
    }

    /** The probe listener on {@code probe.port}, unless that is -1. */
    private void startProbes(String host) {
        int port = config.getInt(ServerConfig.PROBE_PORT);
        if (port < 0) {
            return;
        }
        probes = new ProbeServer(host, port, health::probeAnswer);
        probes.start();
        LOG.info("Probes (/livez, /healthz, /readyz) listening on http://{}:{}", host, probes.port());
    }

    /** The port of the probe listener, or -1 when probe.port is -1. */
    public int probePort() {
        return probes == null ? -1 : probes.port();
    }

    /** Starts the admission client and the resource view; the topics must exist by now. */
    public void startClients() {
        admission.start();
        view.start();
        // Its read-back waits for the two loads readiness waits for, instead of taking a core from them.
        events.start(() -> view.ready() && streams != null && streams.state() == KafkaStreams.State.RUNNING);
        contentDeleter.loop().start();
        for (LoopSupervisor loop : List.of(admission.loop(), view.loop(), events.loop(), contentDeleter.loop())) {
            loop.bindTo(registry);
            health.addLoop(loop);
        }
    }

    /** http, or https when a key store is configured. */
    public String scheme() {
        return config.getString(ServerConfig.HTTP_TLS_KEYSTORE_PATH).isEmpty() ? "http" : "https";
    }

    private void registerRoutes(RoutesConfig routes) {
        // A forward is a read of a caller already checked here; an unknown header (not possible past authorize) reads as reader.
        router = new KeyRouter(config, () -> streams, () -> HostInfo.buildFromEndpoint(advertisedServer()), forwards,
            header -> java.util.Objects.requireNonNullElse(auth.roleName(header), "reader"));
        committedEnd = new CommittedEndReader(config, topics.resources());
        AnsweredWrites answered = new AnsweredWrites();
        ResourceApi resources = new ResourceApi(config, router, view, renderedJson, kinds::policyFor, committedEnd::get, answered);
        ResourceStore store = new ResourceStore(new RoutedAdmissionTransport(admission, router),
            new ViewObjects(view, committedEnd::get), kind -> ResourceStrategy.of(kinds.policyFor(kind), config),
            answered::answered, new NamespaceLifecycle(NamespaceLifecycle.Mode.parse(config.getString(ServerConfig.NAMESPACE_LIFECYCLE)),
                view::get));
        contentDeleter = new ContentDeleter(config, view, store);
        WriteApi writes = new WriteApi(config, store, waits);
        BulkApi bulk = new BulkApi(config, store);
        KindsApi kindsApi = new KindsApi(config, topics, serdes, admission, kinds::store);
        routes.get("/healthz", health::livez);
        routes.get("/livez", health::livez);
        routes.get("/readyz", health::readyz);
        routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(registry.scrape()));
        routes.get("/openapi.json", ctx -> ctx.json(OpenApiDocument.build()));
        routes.get("/api/v1/resources", resources::list);
        routes.get(RES, resources::get);
        routes.put(RES, writes::put);
        routes.post("/api/v1/resources/{kind}/{namespace}", writes::create);
        routes.patch(RES, writes::patch);
        routes.delete(RES, writes::delete);
        routes.put(RES + "/status", writes::putStatus);
        routes.patch(RES + "/status", writes::patchStatus);
        routes.post("/api/v1/bulk", bulk::bulk);
        routes.get(RES + "/diff", resources::diff);
        routes.get(RES + "/diagnosis", resources::diagnosis);
        routes.get(RES + "/events", new EventsApi(events)::list);
        routes.get(RES + "/dependents", new DependentsApi(view)::list);
        routes.get("/api/v1/watch", watch::handle);
        routes.get("/api/v1/kinds", kindsApi::list);
        routes.get("/api/v1/kinds/{kind}", kindsApi::get);
        routes.put("/api/v1/kinds/{kind}", kindsApi::put);
        routes.get("/api/v1/whoami", authorizer::whoami);
        RestContext context = new RestContext(config, auth, view, events, store, waits, watch, kinds::policyFor,
            kinds::kindPolicies, committedEnd::get);
        for (RestExtension extension : java.util.ServiceLoader.load(RestExtension.class, RestServer.class.getClassLoader())) {
            extensions.add(extension);
            extension.register(routes, context);
            LOG.info("REST extension {} registered", extension.getClass().getName());
        }
        UiFiles ui = new UiFiles(RestServer.class.getClassLoader());
        routes.get("/", ui::index);
        // Javalin ignores a trailing slash, so this one route answers /ui as well.
        routes.get("/ui/", ui::index);
        routes.get("/ui/{file}", ui::file);
    }

    private void registerErrors(RoutesConfig routes) {
        routes.exception(ApiError.class, (e, ctx) -> {
            // BodyReader refuses a declared length past the limit before reading a byte of the body.
            if (e.code() == 413) {
                OversizedBodies.drain(ctx);
            }
            renderError(ctx, e);
        });
        // Jetty parses the query string lazily, so a malformed one surfaces here, in the handler that first reads it.
        routes.exception(BadMessageException.class, (e, ctx) -> renderError(ctx, new ApiError(e.getCode(),
            e.getCode() == 400 ? "BadRequest" : "HttpError", e.getReason() == null ? e.getMessage() : e.getReason())));
        routes.exception(HttpResponseException.class, (e, ctx) -> {
            if (e.getStatus() == 413) {
                OversizedBodies.drain(ctx);
            }
            renderError(ctx, new ApiError(e.getStatus(), e.getStatus() == 413 ? "RequestEntityTooLarge" : "HttpError",
                e.getMessage()));
        });
        routes.exception(Exception.class, (e, ctx) -> {
            ApiError answer = UnexpectedErrors.answer(ctx, e);
            try {
                renderError(ctx, answer);
            } catch (RuntimeException ended) {
                // The request ended under the failure (the server stops): a handler that throws here would send
                // Javalin round its exception mapper again, so the failure, logged above, is where it ends.
                LOG.debug("No answer for a request that had ended", ended);
            }
        });
        routes.error(404, ctx -> {
            if (ctx.resultInputStream() == null) {
                renderError(ctx, ApiError.notFound("no route for " + ctx.method() + " " + ctx.path()));
            }
        });
    }

    private void renderError(Context ctx, ApiError e) {
        for (RestExtension extension : extensions) {
            if (extension.renderError(ctx, e)) {
                return;
            }
        }
        ctx.status(e.code());
        if (e.retryAfterSeconds() != null) {
            ctx.header("Retry-After", String.valueOf(e.retryAfterSeconds()));
        }
        if (e.resourceVersion() != null) {
            ctx.header("ETag", "\"" + e.resourceVersion() + "\"");
        }
        ctx.json(e.body());
    }

    /** Why a restart of this instance would help; empty when it would not. */
    public List<String> livenessProblems() {
        return health.livenessProblems();
    }

    /** Adds a condition of liveness that the instance owns outside this server: {@code check} says why not, or null. */
    public void addLivenessCheck(Supplier<String> check) {
        health.addLivenessCheck(check);
    }

    /** Why this instance is not ready; empty when it is. */
    public List<String> readinessProblems() {
        return health.readinessProblems();
    }

    /** Adds a condition of readiness that the instance owns outside this server: {@code check} says why not, or null. */
    public void addReadinessCheck(Supplier<String> check) {
        health.addReadinessCheck(check);
    }

    /** The routes Javalin registered, as {@code METHOD path}; the OpenAPI test compares them with the document. */
    public List<String> registeredRoutes() {
        return javalin.unsafe.internalRouter.allHttpHandlers().stream()
            .map(e -> e.endpoint)
            .filter(e -> e.method.isHttpMethod())
            .map(e -> e.method.name() + " " + e.path).toList();
    }

    /** The Jetty server under Javalin, for tests that inspect what it holds between requests. */
    org.eclipse.jetty.server.Server jetty() {
        return javalin.jettyServer().server();
    }

    public void streamsStarted(KafkaStreams streams) {
        this.streams = streams;
    }

    public int port() {
        return javalin.port();
    }

    public String advertisedServer() {
        String configured = advertisedServerFromConfig();
        return configured != null ? configured : config.getString(ServerConfig.HTTP_HOST) + ":" + port();
    }

    /**
     * What {@link #advertisedServer} will be, known before {@link #bind} when the configuration names it or the port;
     * null when only binding tells (http.port 0).
     */
    public String advertisedServerFromConfig() {
        String explicit = config.getString(ServerConfig.APPLICATION_SERVER);
        if (!explicit.isEmpty()) {
            return explicit;
        }
        int port = config.getInt(ServerConfig.HTTP_PORT);
        return port == 0 ? null : config.getString(ServerConfig.HTTP_HOST) + ":" + port;
    }

    public void stop() {
        if (watch != null) {
            watch.close();
            waits.close();
        }
        if (javalin != null) {
            javalin.stop();
        }
        if (contentDeleter != null) {
            contentDeleter.loop().stop();
        }
        for (AutoCloseable c : new AutoCloseable[] {probes, router, committedEnd, view, events, admission, resourcesTopic}) {
            closeQuietly(c);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (Exception e) {
            LOG.warn("Error while closing {}", c.getClass().getSimpleName(), e);
        }
    }
}
