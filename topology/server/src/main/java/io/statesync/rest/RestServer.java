package io.statesync.rest;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.javalin.Javalin;
import jakarta.servlet.ServletInputStream;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.rest.internal.AdmissionClient;
import io.statesync.rest.internal.AnsweredWrites;
import io.statesync.rest.internal.BulkApi;
import io.statesync.rest.internal.DependentsApi;
import io.statesync.rest.internal.EventsApi;
import io.statesync.rest.internal.ForwardCredential;
import io.statesync.rest.internal.WriteApi;
import io.statesync.rest.internal.JsonErrorHandler;
import io.statesync.rest.internal.CommittedEndReader;
import io.statesync.rest.internal.KeyRouter;
import io.statesync.rest.internal.KindsApi;
import io.statesync.rest.internal.UriCheck;
import io.statesync.rest.internal.OpenApiDocument;
import io.statesync.rest.internal.ProbeServer;
import io.statesync.rest.internal.RenderedJsonCache;
import io.statesync.rest.internal.ResourceApi;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.rest.internal.UiFiles;
import io.statesync.rest.internal.UnexpectedErrors;
import io.statesync.rest.internal.RoutedAdmissionTransport;
import io.statesync.rest.internal.ViewObjects;
import io.statesync.rest.internal.WatchHandler;
import io.statesync.rest.store.ResourceStore;
import io.statesync.rest.store.ResourceStrategy;
import io.statesync.topology.LoopSupervisor;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import io.statesync.topology.PolicyCatalog;
import io.statesync.view.EventHistory;
import io.statesync.view.ResourceView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.http.BadMessageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST server of one instance (docs/contract.md, section 7). It binds before the streams start, so that
 * application.server is known, and reports not-ready until the streams are RUNNING, the stores answer, and the
 * admission reply consumer and the resource view are in place.
 *
 * <p>Every error is {@code {"code","reason","message"}}; every request is timed in
 * {@code statesync_http_server_requests_seconds} tagged with method, route template and status.
 */
public final class RestServer {

    public static final String HTTP_TIMER = "statesync.http.server.requests";
    private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);
    private static final Set<String> OPEN_PATHS = Set.of("/healthz", "/livez", "/readyz", "/metrics", "/openapi.json");
    private static final com.fasterxml.jackson.databind.ObjectMapper PROBE_JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final String RES = "/api/v1/resources/{kind}/{namespace}/{name}";
    /** How much of an oversized body is read and dropped so that its sender still gets the 413. */
    private static final long DRAIN_LIMIT_BYTES = 4L * 1024 * 1024;
    private static final Duration DRAIN_TIME = Duration.ofSeconds(2);

    private final AppConfig config;
    private final PrometheusMeterRegistry registry;
    private final TopicNames topics;
    private final TokenAuth auth;
    /** The instances' own credential for the reads one forwards to another (never the caller's token). */
    private final ForwardCredential forwards;
    private Javalin javalin;
    private volatile KafkaStreams streams;
    private TopologySerdes serdes;
    private AdmissionClient admission;
    private ResourceView view;
    private EventHistory events;
    /** Shared by point reads and watches, so an object read and watched is rendered once per version. */
    private final RenderedJsonCache renderedJson;
    private WatchHandler watch;
    private KeyRouter router;
    private CommittedEndReader committedEnd;
    private final List<Supplier<String>> readinessChecks = new CopyOnWriteArrayList<>();
    private final List<Supplier<String>> livenessChecks = new CopyOnWriteArrayList<>();
    /** The background loops of this server (admission replies, the view's reader, the event history), once started. */
    private final List<LoopSupervisor> loops = new CopyOnWriteArrayList<>();
    private ProbeServer probes;
    private Admin admin;
    private final Map<TimerKey, Timer> timers = new ConcurrentHashMap<>();
    /** Further APIs found on the class path (the Kubernetes API), in the order the service loader found them. */
    private final List<RestExtension> extensions = new ArrayList<>();

    public RestServer(AppConfig config, PrometheusMeterRegistry registry) {
        this.config = config;
        this.registry = registry;
        this.topics = new TopicNames(config.topicPrefix());
        this.auth = TokenAuth.fromConfig(config);
        this.forwards = ForwardCredential.fromConfig(config, auth.fingerprint());

        this.renderedJson = new RenderedJsonCache(RenderedJsonCache.DEFAULT_SLOTS, config.getLong(AppConfig.VIEW_JSON_CACHE_BYTES),
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
        String host = config.getString(AppConfig.HTTP_HOST);
        requireLoopbackWithoutAuth(host);
        serdes = new TopologySerdes(config);
        admission = new AdmissionClient(config, topics, serdes);
        admin = Admin.create(adminProps());
        view = new ResourceView(config, topics, serdes, this::resourcesTopicFacts);
        events = new EventHistory(config, topics, serdes);
        Gauge.builder("statesync.rest.view.resources", view, ResourceView::size)
            .description("Resources in this instance's REST view (lists, watches and fresh point reads)").register(registry);
        Gauge.builder("statesync.rest.view.snapshot.resources", view, ResourceView::restoredFromSnapshot)
            .description("Resources the REST view took from its local snapshot at start; 0 when it read the topic from the beginning")
            .register(registry);
        Gauge.builder("statesync.rest.view.heap.bytes", view, ResourceView::heapValueBytes).baseUnit("bytes")
            .description("Bytes of resources the REST view holds on the heap; the others are mapped from its snapshot file (view.spill.bytes)")
            .register(registry);
        watch = new WatchHandler(config, view, renderedJson, () -> resourcesOffsets(OffsetSpec.earliest()), registry);
        javalin = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            // Javalin's watcher is a non-daemon thread that sleeps five seconds to tell whether start() was called; this
            // instance starts right away, and the thread would only hold up the exit of a short-lived JVM.
            cfg.startup.startupWatcherEnabled = false;
            cfg.http.maxRequestSize = config.getInt(AppConfig.HTTP_MAX_BODY_BYTES);
            cfg.requestLogger.http(this::recordRequest);
            JsonErrorHandler errors = new JsonErrorHandler();
            cfg.jetty.modifyServer(server -> server.setErrorHandler(errors));
            cfg.jetty.modifyServletContextHandler(context -> context.setErrorHandler(errors));
            String keystore = config.getString(AppConfig.HTTP_TLS_KEYSTORE_PATH);
            if (!keystore.isEmpty()) {
                cfg.jetty.addConnector((server, http) -> httpsConnector(server, http, keystore, host));
            }
            registerErrors(cfg.routes);
            cfg.routes.before(UriCheck::requireWellFormed);
            // A plain before-handler on the request path: beforeMatched would match the route a second time for every
            // request, a real share of a point read's server time. Unknown paths then need a token too, as in Kubernetes.
            cfg.routes.before(this::authorize);
            registerRoutes(cfg.routes);
        });
        javalin.start(host, config.getInt(AppConfig.HTTP_PORT));
        LOG.info("REST listening on {}://{}:{}", scheme(), host, port());
        startProbes(host);
    }

    /** The probe listener on {@code probe.port}, unless that is -1. */
    private void startProbes(String host) {
        int port = config.getInt(AppConfig.PROBE_PORT);
        if (port < 0) {
            return;
        }
        probes = new ProbeServer(host, port, this::probeAnswer);
        probes.start();
        LOG.info("Probes (/livez, /healthz, /readyz) listening on http://{}:{}", host, probes.port());
    }

    /** The port of the probe listener, or -1 when probe.port is -1. */
    public int probePort() {
        return probes == null ? -1 : probes.port();
    }

    private ProbeServer.Answer probeAnswer(String path) {
        Map<String, Object> body = switch (path) {
            case "/healthz", "/livez" -> livenessBody();
            case "/readyz" -> readinessBody();
            default -> null;
        };
        if (body == null) {
            return null;
        }
        try {
            return new ProbeServer.Answer(body.containsKey("reason") ? 503 : 200, PROBE_JSON.writeValueAsBytes(body));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Starts the admission client and the resource view; the topics must exist by now. */
    public void startClients() {
        admission.start();
        view.start();
        events.start();
        for (LoopSupervisor loop : List.of(admission.loop(), view.loop(), events.loop())) {
            loop.bindTo(registry);
            loops.add(loop);
        }
    }

    /** http, or https when a key store is configured. */
    public String scheme() {
        return config.getString(AppConfig.HTTP_TLS_KEYSTORE_PATH).isEmpty() ? "http" : "https";
    }

    /**
     * The only connector when a key store is configured (Javalin then adds no plain one): TLS in process, so that
     * tokens never cross the network in clear text without a terminating proxy.
     */
    private Connector httpsConnector(Server server, HttpConfiguration http, String keystore, String host) {
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(keystore);
        tls.setKeyStoreType(config.getString(AppConfig.HTTP_TLS_KEYSTORE_TYPE));
        Password password = config.getPassword(AppConfig.HTTP_TLS_KEYSTORE_PASSWORD);
        if (password != null) {
            tls.setKeyStorePassword(password.value());
        }
        HttpConfiguration https = new HttpConfiguration(http);
        https.addCustomizer(new SecureRequestCustomizer());
        ServerConnector connector = new ServerConnector(server, new SslConnectionFactory(tls, HttpVersion.HTTP_1_1.asString()),
            new HttpConnectionFactory(https));
        connector.setHost(host);
        connector.setPort(config.getInt(AppConfig.HTTP_PORT));
        return connector;
    }

    private void registerRoutes(RoutesConfig routes) {
        // A forward is a read of a caller already checked here; an unknown header (not possible past authorize) reads as reader.
        router = new KeyRouter(config, () -> streams, () -> HostInfo.buildFromEndpoint(advertisedServer()), forwards,
            header -> java.util.Objects.requireNonNullElse(auth.roleName(header), "reader"));
        committedEnd = new CommittedEndReader(config, topics.resources());
        AnsweredWrites answered = new AnsweredWrites();
        ResourceApi resources = new ResourceApi(config, router, view, renderedJson, this::policyFor, committedEnd::get, answered);
        ResourceStore store = new ResourceStore(new RoutedAdmissionTransport(admission, router),
            new ViewObjects(view, committedEnd::get), kind -> ResourceStrategy.of(policyFor(kind), config), answered::answered);
        WriteApi writes = new WriteApi(config, store);
        BulkApi bulk = new BulkApi(config, store);
        KindsApi kinds = new KindsApi(config, topics, serdes, admission, this::kindsStore);
        routes.get("/healthz", this::livez);
        routes.get("/livez", this::livez);
        routes.get("/readyz", this::readyz);
        routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(registry.scrape()));
        routes.get("/openapi.json", ctx -> ctx.json(OpenApiDocument.build()));
        routes.get("/api/v1/resources", resources::list);
        routes.get(RES, resources::get);
        routes.put(RES, writes::put);
        routes.post("/api/v1/resources/{kind}/{namespace}", writes::create);
        routes.patch(RES, writes::patch);
        routes.delete(RES, writes::delete);
        routes.post("/api/v1/bulk", bulk::bulk);
        routes.get(RES + "/diff", resources::diff);
        routes.get(RES + "/diagnosis", resources::diagnosis);
        routes.get(RES + "/events", new EventsApi(events)::list);
        routes.get(RES + "/dependents", new DependentsApi(view)::list);
        routes.get("/api/v1/watch", watch::handle);
        routes.get("/api/v1/kinds", kinds::list);
        routes.get("/api/v1/kinds/{kind}", kinds::get);
        routes.put("/api/v1/kinds/{kind}", kinds::put);
        routes.get("/api/v1/whoami", this::whoami);
        RestContext context = new RestContext(config, auth, view, events, store, watch, this::policyFor,
            this::kindPolicies, committedEnd::get);
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

    /** What the caller's token may do, so that a client (the web UI) shows a reader no write controls. */
    private void whoami(Context ctx) {
        boolean writer = !auth.enabled() || auth.roleOf(ctx.header("Authorization")) == TokenAuth.Role.WRITER;
        ctx.json(Map.of("authEnabled", auth.enabled(), "role", writer ? "writer" : "reader"));
    }

    /**
     * Jetty closes a connection whose request body was left unread; a client still sending that body then loses the 413
     * with the connection. Up to {@link #DRAIN_LIMIT_BYTES} of it are read and dropped first, so that the client gets
     * its answer; a body larger than that still closes the connection. Only bytes already arrived are read, for at
     * most {@link #DRAIN_TIME}, so that a client announcing more than it sends cannot hold the handler.
     */
    private static void drainOversizedBody(Context ctx) {
        long left = Math.min(DRAIN_LIMIT_BYTES, Math.max(0, ctx.req().getContentLengthLong()));
        long deadline = System.nanoTime() + DRAIN_TIME.toNanos();
        byte[] buffer = new byte[16_384];
        try {
            ServletInputStream in = ctx.req().getInputStream();
            while (left > 0 && !in.isFinished() && System.nanoTime() < deadline) {
                int ready = in.available();
                if (ready <= 0) {
                    Thread.sleep(2);
                    continue;
                }
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, Math.min(ready, left)));
                if (read < 0) {
                    return;
                }
                left -= read;
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException endedEarly) {
            // A body shorter than announced, or a client that stopped sending: the answer goes out all the same.
        }
    }

    private void registerErrors(RoutesConfig routes) {
        routes.exception(ApiError.class, (e, ctx) -> {
            // BodyReader refuses a declared length past the limit before reading a byte of the body.
            if (e.code() == 413) {
                drainOversizedBody(ctx);
            }
            renderError(ctx, e);
        });
        // Jetty parses the query string lazily, so a malformed one surfaces here, in the handler that first reads it.
        routes.exception(BadMessageException.class, (e, ctx) -> renderError(ctx, new ApiError(e.getCode(),
            e.getCode() == 400 ? "BadRequest" : "HttpError", e.getReason() == null ? e.getMessage() : e.getReason())));
        routes.exception(HttpResponseException.class, (e, ctx) -> {
            if (e.getStatus() == 413) {
                drainOversizedBody(ctx);
            }
            renderError(ctx, new ApiError(e.getStatus(), e.getStatus() == 413 ? "RequestEntityTooLarge" : "HttpError",
                e.getMessage()));
        });
        routes.exception(Exception.class, (e, ctx) -> renderError(ctx, UnexpectedErrors.answer(ctx, e)));
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

    /**
     * Probes, metrics, the API description and the web UI's static files stay open; everything else needs reader,
     * and writes need writer. A read another instance forwards carries that instance's signed credential and the
     * caller's role instead of the caller's token.
     */
    private void authorize(Context ctx) {
        // First, and whatever the path: only a verified signature marks a request as another instance's forward.
        String forwardedRole = forwards.verify(ctx);
        if (!auth.enabled() || OPEN_PATHS.contains(ctx.path()) || ctx.method().name().equals("GET") && UiFiles.isUiPath(ctx.path())) {
            return;
        }
        String m = ctx.method().name();
        boolean write = !(m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS"));
        if (forwardedRole != null) {
            if (write && !forwardedRole.equals("writer")) {
                throw ApiError.forbidden("this token has the reader role; writes need writer");
            }
            return;
        }
        auth.require(ctx.header("Authorization"), write ? TokenAuth.Role.WRITER : TokenAuth.Role.READER);
    }

    private void recordRequest(Context ctx, Float ms) {
        String route;
        try {
            Endpoint endpoint = ctx.endpoints().lastHttpEndpoint();
            route = endpoint == null ? "" : endpoint.path;
        } catch (RuntimeException e) {
            route = "";
        }
        String method = ctx.method().name();
        String tagRoute = route == null || route.isEmpty() ? "unmatched" : route;
        int status = ctx.statusCode();
        // Looked up in our own map: Micrometer's builder and register() cost more than the timing itself per request.
        timers.computeIfAbsent(new TimerKey(method, tagRoute, status), k -> Timer.builder(HTTP_TIMER)
                .description("REST requests by method, route template and status")
                .tag("method", k.method()).tag("route", k.route()).tag("status", String.valueOf(k.status())).register(registry))
            .record((long) (ms * 1_000_000), TimeUnit.NANOSECONDS);
    }

    private record TimerKey(String method, String route, int status) {
    }

    private void requireLoopbackWithoutAuth(String host) {
        if (auth.enabled()) {
            return;
        }
        try {
            if (!InetAddress.getByName(host).isLoopbackAddress()) {
                throw new IllegalStateException("http.host=" + host + " is not a loopback address and no auth tokens are configured;"
                    + " configure auth.tokens or auth.tokens.file, or bind to 127.0.0.1");
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException("Cannot resolve http.host=" + host, e);
        }
        LOG.warn("No auth tokens configured: the REST API is open, bound to loopback {} only", host);
    }

    private void readyz(Context ctx) {
        Map<String, Object> body = readinessBody();
        if (body.containsKey("reason")) {
            ctx.status(503);
        }
        ctx.json(body);
    }

    private Map<String, Object> readinessBody() {
        List<String> problems = readinessProblems();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ready", problems.isEmpty());
        if (!problems.isEmpty()) {
            body.put("reason", String.join("; ", problems));
        }
        body.put("loops", loops.stream().map(RestServer::loopJson).toList());
        return body;
    }

    private static Map<String, Object> loopJson(LoopSupervisor loop) {
        LoopSupervisor.State state = loop.state();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", state.loop());
        out.put("phase", state.phase().name());
        if (state.reason() != null) {
            out.put("reason", state.reason());
        }
        out.put("since", state.since().toString());
        out.put("restarts", loop.restarts());
        return out;
    }

    /** Liveness: 503 only where a restart of the instance would help (a background loop stopped or failing too long). */
    private void livez(Context ctx) {
        Map<String, Object> body = livenessBody();
        if (body.containsKey("reason")) {
            ctx.status(503);
        }
        ctx.json(body);
    }

    private Map<String, Object> livenessBody() {
        List<String> problems = livenessProblems();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", problems.isEmpty() ? "ok" : "failing");
        if (!problems.isEmpty()) {
            body.put("reason", String.join("; ", problems));
        }
        return body;
    }

    /** Why a restart of this instance would help; empty when it would not. */
    public List<String> livenessProblems() {
        List<String> problems = new ArrayList<>();
        for (LoopSupervisor loop : loops) {
            String problem = loop.livenessProblem();
            if (problem != null) {
                problems.add(problem);
            }
        }
        for (Supplier<String> check : livenessChecks) {
            String problem = check.get();
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    /** Adds a condition of liveness that the instance owns outside this server: {@code check} says why not, or null. */
    public void addLivenessCheck(Supplier<String> check) {
        livenessChecks.add(check);
    }

    /** Why this instance is not ready; empty when it is. */
    public List<String> readinessProblems() {
        List<String> problems = new ArrayList<>();
        KafkaStreams s = streams;
        if (s == null) {
            problems.add("streams not started");
        } else if (s.state() != KafkaStreams.State.RUNNING) {
            problems.add("streams state is " + s.state());
        } else {
            try {
                s.store(StoreQueryParameters.fromNameAndType(StatesyncTopology.STATE_STORE, QueryableStoreTypes.keyValueStore()));
                kindsStore();
            } catch (RuntimeException e) {
                problems.add("stores not queryable: " + e.getMessage());
            }
        }
        if (!admission.ready()) {
            problems.add("admission reply consumer not assigned");
        }
        if (!view.ready()) {
            problems.add("resource view still loading");
        }
        for (LoopSupervisor loop : loops) {
            String problem = loop.readinessProblem();
            if (problem != null) {
                problems.add(problem);
            }
        }
        for (Supplier<String> check : readinessChecks) {
            String problem = check.get();
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    /** Adds a condition of readiness that the instance owns outside this server: {@code check} says why not, or null. */
    public void addReadinessCheck(Supplier<String> check) {
        readinessChecks.add(check);
    }

    private ReadOnlyKeyValueStore<String, byte[]> kindsStore() {
        KafkaStreams s = streams;
        if (s == null) {
            throw ApiError.unavailable("the streams are not started", 1);
        }
        try {
            return s.store(StoreQueryParameters.fromNameAndType(StatesyncTopology.KINDS_STORE,
                QueryableStoreTypes.<String, byte[]>keyValueStore()));
        } catch (InvalidStateStoreException e) {
            throw ApiError.unavailable("the kinds store is not queryable yet: " + e.getMessage(), 1);
        }
    }

    /** Every kind policy in this instance's global store, by kind. */
    private Map<String, io.statesync.avro.KindPolicy> kindPolicies() {
        return KindsApi.decodable(kindsStore(), serdes.kindPolicy().deserializer(), topics.kinds());
    }

    /** A dry run refuses as the write would: 503 while the kind's stored policy does not decode. */
    private io.statesync.reconciler.ReconcilePolicy policyFor(String kind) {
        try {
            return new PolicyCatalog(kindsStore(), serdes.kindPolicy().deserializer(), topics.kinds()).forAdmission(kind);
        } catch (PolicyCatalog.PolicyUnavailableException e) {
            throw ApiError.unavailable(e.getMessage(), 1);
        }
    }

    /**
     * Offsets of every statesync.resources partition: {@code earliest} is the log start (a watch from before it is
     * 410 Gone), {@code latest} read_committed is the end a list waits for.
     */
    private long[] resourcesOffsets(OffsetSpec spec) {
        int n = view.position().length;
        Map<TopicPartition, OffsetSpec> query = new LinkedHashMap<>();
        for (int p = 0; p < n; p++) {
            query.put(new TopicPartition(topics.resources(), p), spec);
        }
        try {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> r = admin.listOffsets(query,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(10, TimeUnit.SECONDS);
            long[] out = new long[n];
            r.forEach((tp, info) -> out[tp.partition()] = info.offset());
            return out;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw ApiError.unavailable("cannot read the offsets of " + topics.resources() + ": " + e.getMessage(), 1);
        }
    }

    /** The resources topic's id and tombstone retention, which decide whether the view's snapshot may be used. */
    private ResourceView.TopicFacts resourcesTopicFacts() {
        String topic = topics.resources();
        try {
            String id = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic).topicId().toString();
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            ConfigEntry retention = admin.describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource)
                .get(TopicConfig.DELETE_RETENTION_MS_CONFIG);
            return new ResourceView.TopicFacts(id, retention == null ? 0 : Long.parseLong(retention.value()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing " + topic, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe " + topic + ": " + e.getMessage(), e);
        }
    }

    private Map<String, Object> adminProps() {
        Map<String, Object> p = config.clientProps(AppConfig.ADMIN_PREFIX);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        return p;
    }

    /** The routes Javalin registered, as {@code METHOD path}; the OpenAPI test compares them with the document. */
    public List<String> registeredRoutes() {
        return javalin.unsafe.internalRouter.allHttpHandlers().stream()
            .map(e -> e.endpoint)
            .filter(e -> e.method.isHttpMethod())
            .map(e -> e.method.name() + " " + e.path).toList();
    }

    public void streamsStarted(KafkaStreams streams) {
        this.streams = streams;
    }

    public int port() {
        return javalin.port();
    }

    public String advertisedServer() {
        String configured = advertisedServerFromConfig();
        return configured != null ? configured : config.getString(AppConfig.HTTP_HOST) + ":" + port();
    }

    /**
     * What {@link #advertisedServer} will be, known before {@link #bind} when the configuration names it or the port;
     * null when only binding tells (http.port 0).
     */
    public String advertisedServerFromConfig() {
        String explicit = config.getString(AppConfig.APPLICATION_SERVER);
        if (!explicit.isEmpty()) {
            return explicit;
        }
        int port = config.getInt(AppConfig.HTTP_PORT);
        return port == 0 ? null : config.getString(AppConfig.HTTP_HOST) + ":" + port;
    }

    public void stop() {
        if (watch != null) {
            watch.close();
        }
        if (javalin != null) {
            javalin.stop();
        }
        closeQuietly(probes);
        closeQuietly(router);
        closeQuietly(committedEnd);
        closeQuietly(view);
        closeQuietly(events);
        closeQuietly(admission);
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
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
