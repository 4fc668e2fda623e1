package io.statesync.rest;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;

import static org.awaitility.Awaitility.await;

/** A real {@link StatesyncApp} on the embedded cluster with an HTTP client for it; one per test class. */
final class RestTestApp implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String WRITER = "w-" + UUID.randomUUID();
    static final String READER = "r-" + UUID.randomUUID();

    final StatesyncApp app;
    final String base;
    final String prefix;
    private final HttpClient http;
    private String token = WRITER;

    private RestTestApp(StatesyncApp app, String base, String prefix) {
        this(app, base, prefix, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    private RestTestApp(StatesyncApp app, String base, String prefix, HttpClient http) {
        this.app = app;
        this.base = base;
        this.prefix = prefix;
        this.http = http;
    }

    /** An instance whose REST port is HTTPS ({@code http.tls.keystore.*} in {@code config}), with a client trusting {@code tls}. */
    static RestTestApp startHttps(Map<String, Object> config, javax.net.ssl.SSLContext tls) {
        StatesyncApp app = new StatesyncApp(new AppConfig(config));
        app.start();
        // The connect timeout covers the TLS handshake, which takes seconds on a loaded machine.
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).sslContext(tls).build();
        RestTestApp t = new RestTestApp(app, "https://127.0.0.1:" + app.httpPort(), (String) config.get(AppConfig.TOPIC_PREFIX), http);
        t.awaitReady();
        return t;
    }

    /** A client only, for a server the test started itself. */
    static RestTestApp client(String base) {
        return new RestTestApp(null, base, null);
    }

    /** The usual test config: 3 partitions, one thread, fast commits, reader and writer tokens. */
    static Map<String, Object> config(String name, String prefix) throws IOException {
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, EmbeddedClusterExtension.bootstrapServers());
        p.put(AppConfig.SCHEMA_REGISTRY_URL, EmbeddedClusterExtension.registryUrl());
        p.put(AppConfig.APPLICATION_ID, name + "-" + UUID.randomUUID().toString().substring(0, 8));
        p.put(AppConfig.TOPIC_PREFIX, prefix);
        p.put(ServerConfig.TOPIC_PARTITIONS, 3);
        p.put(AppConfig.NUM_STREAM_THREADS, 1);
        p.put(AppConfig.COMMIT_INTERVAL_MS, 50L);
        p.put(ServerConfig.HTTP_PORT, 0);
        p.put(ServerConfig.HTTP_MAX_BODY_BYTES, 65_536);
        p.put(AppConfig.STATE_DIR, Files.createTempDirectory("statesync-rest-it").toString());
        p.put(ServerConfig.AUTH_TOKENS, WRITER + ":writer," + READER + ":reader");
        p.put(ServerConfig.WATCH_BOOKMARK_INTERVAL_MS, 500L);
        p.put("streams.session.timeout.ms", 10_000);
        return p;
    }

    /** A kind no other test uses, starting with {@code prefix}, so that tests' policies and objects do not meet. */
    static String uniqueKind(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    static String prefix(String name) {
        return name + "-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    }

    static RestTestApp start(Map<String, Object> config) {
        StatesyncApp app = new StatesyncApp(new AppConfig(config));
        app.start();
        RestTestApp t = new RestTestApp(app, "http://127.0.0.1:" + app.httpPort(), (String) config.get(AppConfig.TOPIC_PREFIX));
        t.awaitReady();
        return t;
    }

    void awaitReady() {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
            .until(() -> send("GET", "/readyz", null, null).statusCode() == 200);
    }

    RestTestApp as(String bearer) {
        this.token = bearer;
        return this;
    }

    HttpResponse<String> get(String path) {
        return send("GET", path, null, null);
    }

    HttpResponse<String> put(String path, Object body) {
        return send("PUT", path, body, "application/json");
    }

    HttpResponse<String> send(String method, String path, Object body, String contentType, String... headers) {
        return JsonRequests.send(http, Duration.ofSeconds(60), base + path, token, method, body, contentType, headers);
    }

    static JsonNode json(HttpResponse<String> r) {
        return JsonRequests.json(r);
    }

    static String write(Object o) {
        return JsonRequests.write(o);
    }

    /** A PUT body for a resource with the given spec and labels. */
    static Map<String, Object> body(Map<String, Object> spec, Map<String, String> labels) {
        return Map.of("metadata", Map.of("labels", labels), "spec", spec);
    }

    static Path tempDir() throws IOException {
        return Files.createTempDirectory("statesync-rest-it");
    }

    /** Another instance of the same application as {@code config}: the same settings, its own state directory. */
    static Map<String, Object> sameAppOwnState(Map<String, Object> config) throws IOException {
        Map<String, Object> other = new HashMap<>(config);
        other.put(AppConfig.STATE_DIR, tempDir().toString());
        return other;
    }

    /** Closes those started, in the order given (the later-started first, so the first one sees no rebalance). */
    static void closeAll(RestTestApp... apps) {
        for (RestTestApp app : apps) {
            if (app != null) {
                app.close();
            }
        }
    }

    /**
     * Writes one resource to every partition of the desired topic and asserts each write is admitted within
     * {@code within}: the check every abuse test ends with, since an attack must leave no partition wedged.
     */
    void assertEveryPartitionAdmits(int partitions, java.time.Duration within) {
        PartitionProbes.assertEveryPartitionAdmits((path, body) -> JsonRequests.send(http, within, base + path, WRITER,
            "PUT", body, "application/json"), partitions, within);
    }

    /**
     * Starts a new instance on {@code config} (the same application id and state directory as the one the attack
     * ran against, now closed), asserts {@link #assertEveryPartitionAdmits} within 5 s there, and closes it: the
     * check for an attack that could outlive a restart.
     */
    static void assertEveryPartitionAdmitsAfterARestart(Map<String, Object> config) {
        RestTestApp again = start(config).as(WRITER);
        try {
            again.assertEveryPartitionAdmits(3, java.time.Duration.ofSeconds(5));
        } finally {
            again.close();
        }
    }

    /** A resource name under {@code base} whose key {@code Probe/default/<name>} lands on {@code partition}. */
    static String nameOnPartition(String base, int partition, int partitions) {
        return PartitionProbes.nameOnPartition(base, partition, partitions);
    }

    @Override
    public void close() {
        if (app != null) {
            app.close();
        }
    }
}
