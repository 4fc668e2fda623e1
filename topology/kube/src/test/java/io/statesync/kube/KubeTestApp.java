package io.statesync.kube;

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
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.embedded.FreePorts;
import io.statesync.rest.JsonRequests;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;

import static org.awaitility.Awaitility.await;

/** A real {@link StatesyncApp} (with the Kubernetes API on its class path) on the embedded cluster, and clients for it. */
final class KubeTestApp implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String WRITER = "w-" + UUID.randomUUID();
    static final String READER = "r-" + UUID.randomUUID();

    final Map<String, Object> config;
    StatesyncApp app;
    private final HttpClient http;

    private KubeTestApp(Map<String, Object> config, javax.net.ssl.SSLContext tls) {
        this.config = config;
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        this.http = (tls == null ? b : b.sslContext(tls)).build();
    }

    /** The usual test settings: 3 partitions, one thread, fast commits and bookmarks, reader and writer tokens, a fixed port. */
    static Map<String, Object> config(String name) throws IOException {
        String id = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, EmbeddedClusterExtension.bootstrapServers());
        p.put(AppConfig.SCHEMA_REGISTRY_URL, EmbeddedClusterExtension.registryUrl());
        p.put(AppConfig.APPLICATION_ID, id);
        p.put(AppConfig.TOPIC_PREFIX, id + ".");
        p.put(ServerConfig.TOPIC_PARTITIONS, 3);
        p.put(AppConfig.NUM_STREAM_THREADS, 1);
        p.put(AppConfig.COMMIT_INTERVAL_MS, 50L);
        // A port of its own that a restart can bind again, so that clients and relays keep their address.
        p.put(ServerConfig.HTTP_PORT, FreePorts.pick());
        p.put(AppConfig.STATE_DIR, Files.createTempDirectory("statesync-kube-it").toString());
        p.put(ServerConfig.AUTH_TOKENS, WRITER + ":writer," + READER + ":reader");
        p.put(ServerConfig.WATCH_BOOKMARK_INTERVAL_MS, 500L);
        p.put("streams.session.timeout.ms", 10_000);
        return p;
    }

    static KubeTestApp start(Map<String, Object> config) {
        return start(config, null);
    }

    /** With {@code tls}, the client's trust for an instance configured with http.tls.keystore.path. */
    static KubeTestApp start(Map<String, Object> config, javax.net.ssl.SSLContext tls) {
        KubeTestApp t = new KubeTestApp(config, tls);
        t.startApp();
        return t;
    }

    void startApp() {
        app = new StatesyncApp(new AppConfig(config));
        app.start();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
            .until(() -> send("GET", "/readyz", null, null).statusCode() == 200);
    }

    /** A clean stop and a start of a new instance with the same settings, state directory and port. */
    void restart() {
        app.close();
        startApp();
    }

    int port() {
        return (Integer) config.get(ServerConfig.HTTP_PORT);
    }

    String base() {
        return (config.containsKey(ServerConfig.HTTP_TLS_KEYSTORE_PATH) ? "https" : "http") + "://127.0.0.1:" + port();
    }

    /** A fabric8 client for {@code url} with the writer's token, in namespace {@code namespace}. */
    static KubernetesClient client(String url, String namespace) {
        Config c = new ConfigBuilder(Config.empty()).withMasterUrl(url).withOauthToken(WRITER).withNamespace(namespace)
            .withRequestTimeout(60_000).withConnectionTimeout(5_000).withWatchReconnectInterval(200)
            .withWatchReconnectLimit(-1).build();
        return new KubernetesClientBuilder().withConfig(c).build();
    }

    /**
     * A connection that has sent a WebSocket upgrade of {@code path} as fabric8 sends it before it watches (with its
     * Origin), with {@code token} (none when null) and {@code headers} (whole lines) added; the answer is not read.
     */
    java.net.Socket upgrade(String path, String token, String... headers) throws IOException {
        java.net.Socket s = new java.net.Socket("127.0.0.1", port());
        s.setSoTimeout(10_000);
        StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: " + base()
            + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n");
        if (token != null) {
            request.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        s.getOutputStream().write(request.append("\r\n").toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return s;
    }

    /** The head and body of the answer to {@link #upgrade}. */
    String upgradeAnswer(String path, String token, String... headers) throws IOException {
        try (java.net.Socket s = upgrade(path, token, headers)) {
            return answer(s);
        }
    }

    /** The head of the answer read from {@code s}, and the body its Content-Length announces. */
    static String answer(java.net.Socket s) throws IOException {
        java.io.InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                return head.toString();
            }
            head.append((char) b);
        }
        java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        return head + (length.find() ? new String(in.readNBytes(Integer.parseInt(length.group(1))),
            java.nio.charset.StandardCharsets.UTF_8) : "");
    }

    /** Writes a kind policy, which makes the kind known to discovery. */
    void putKind(String kind, Map<String, Object> policy) {
        HttpResponse<String> r = send("PUT", "/api/v1/kinds/" + kind, policy, "application/json");
        if (r.statusCode() != 200) {
            throw new AssertionError("kind policy not written: " + r.statusCode() + " " + r.body());
        }
    }

    HttpResponse<String> send(String method, String path, Object body, String contentType, String... headers) {
        return JsonRequests.send(http, Duration.ofSeconds(60), base() + path,
            config.containsKey(ServerConfig.AUTH_TOKENS) ? WRITER : null, method, body, contentType, headers);
    }

    static JsonNode json(HttpResponse<String> r) {
        return JsonRequests.json(r);
    }

    static String write(Object o) {
        return JsonRequests.write(o);
    }

    static Path tempDir() throws IOException {
        return Files.createTempDirectory("statesync-kube-it");
    }

    @Override
    public void close() {
        if (app != null) {
            app.close();
        }
    }
}
