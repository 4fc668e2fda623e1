package io.statesync.registry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

/**
 * A scripted registry for client unit tests: each {@code METHOD path} answers from a queue of canned responses
 * (the last one repeats), every request is recorded, and anything unscripted is a 404 with error code 40401.
 */
final class StubRegistryServer implements AutoCloseable {

    record Request(String method, String path, String authorization, String contentType, String body) {
    }

    record Response(int status, String body) {
    }

    private final HttpServer server;
    private final Map<String, Deque<Response>> script = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private StubRegistryServer(HttpServer server) {
        this.server = server;
        server.createContext("/", this::handle);
        server.start();
    }

    static StubRegistryServer http() throws IOException {
        return new StubRegistryServer(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
    }

    static StubRegistryServer https(SSLContext tls) throws IOException {
        HttpsServer s = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.setHttpsConfigurator(new HttpsConfigurator(tls));
        return new StubRegistryServer(s);
    }

    /** Answers {@code METHOD path} with these responses in turn; the last one repeats. */
    StubRegistryServer on(String method, String path, Response... responses) {
        script.put(method + " " + path, new ArrayDeque<>(List.of(responses)));
        return this;
    }

    static Response ok(String body) {
        return new Response(200, body);
    }

    static Response error(int status, int code, String message) {
        return new Response(status, "{\"error_code\":" + code + ",\"message\":\"" + message + "\"}");
    }

    String url() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return scheme + "://" + (server instanceof HttpsServer ? "localhost" : "127.0.0.1") + ":"
            + server.getAddress().getPort() + "/apis/ccompat/v7";
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath().replaceFirst("^/apis/ccompat/v7", "");
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(ex.getRequestMethod(), path, ex.getRequestHeaders().getFirst("Authorization"),
            ex.getRequestHeaders().getFirst("Content-Type"), body));
        Deque<Response> queue = script.get(ex.getRequestMethod() + " " + path);
        Response r = queue == null ? error(404, 40401, "Subject not found")
            : queue.size() > 1 ? queue.poll() : queue.peek();
        byte[] bytes = r.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        ex.sendResponseHeaders(r.status(), bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
