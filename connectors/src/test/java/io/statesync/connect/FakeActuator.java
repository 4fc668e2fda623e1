package io.statesync.connect;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP server playing both the actuator ({@code POST/PUT/PATCH/DELETE /apis/{kind}/{ns}/{name}}) and the
 * observed-state list API ({@code GET /apis}). It stores what it is told, remembers the statesync generation, uid
 * and command id headers, and can be told to fail the next requests.
 */
final class FakeActuator implements AutoCloseable {

    record Request(String method, String path, String body, Map<String, List<String>> headers) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    final Map<String, ObjectNode> items = new ConcurrentHashMap<>();
    final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    final Queue<Integer> failNext = new ConcurrentLinkedQueue<>();
    final java.util.Set<String> rejected = ConcurrentHashMap.newKeySet();

    FakeActuator() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/apis", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    String urlTemplate() {
        return baseUrl() + "/apis/{kind}/{namespace}/{name}";
    }

    String listUrl() {
        return baseUrl() + "/apis";
    }

    List<Request> writes() {
        synchronized (requests) {
            return requests.stream().filter(r -> !r.method().equals("GET")).toList();
        }
    }

    /** Puts an item as if it existed in the world before statesync. */
    void put(String kind, String namespace, String name, JsonNode spec) {
        ObjectNode item = JSON.createObjectNode();
        item.put("kind", kind);
        item.putObject("metadata").put("namespace", namespace).put("name", name);
        item.set("spec", spec);
        items.put(kind + "/" + namespace + "/" + name, item);
    }

    private void handle(HttpExchange ex) throws IOException {
        String body;
        try (InputStream in = ex.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Request request = new Request(ex.getRequestMethod(), ex.getRequestURI().getRawPath(), body,
            Map.copyOf(ex.getRequestHeaders()));
        requests.add(request);
        Integer failure = failNext.poll();
        if (failure != null) {
            respond(ex, failure, "{\"message\":\"injected failure\"}");
            return;
        }
        if (request.method().equals("GET")) {
            ArrayNode list = JSON.createArrayNode();
            items.values().forEach(list::add);
            ObjectNode out = JSON.createObjectNode();
            out.set("items", list);
            respond(ex, 200, out.toString());
            return;
        }
        respond(ex, write(request), "{}");
    }

    private int write(Request r) throws IOException {
        String[] parts = r.path().substring("/apis/".length()).split("/");
        if (parts.length != 3) {
            return 404;
        }
        String kind = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
        String ns = URLDecoder.decode(parts[1], StandardCharsets.UTF_8);
        String name = URLDecoder.decode(parts[2], StandardCharsets.UTF_8);
        String key = kind + "/" + ns + "/" + name;
        if (rejected.contains(key)) {
            return 400;
        }
        if (r.method().equals("DELETE")) {
            items.remove(key);
            return 200;
        }
        if (r.method().equals("PATCH")) {
            return 405; // the fake only takes whole specs
        }
        put(kind, ns, name, JSON.readTree(r.body()));
        ObjectNode meta = (ObjectNode) items.get(key).get("metadata");
        meta.put("generation", Long.parseLong(r.header("X-Statesync-Generation")));
        meta.put("uid", r.header("X-Statesync-Uid"));
        meta.put("lastCommandId", r.header("X-Statesync-Command-Id"));
        return r.method().equals("POST") ? 201 : 200;
    }

    private static void respond(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
