package io.statesync.registry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Sits between a client and a real registry and writes down every request that passes, so a test can count the
 * HTTP calls the client really made without trusting the client's own bookkeeping.
 */
final class RecordingProxy implements AutoCloseable {

    private final HttpServer server;
    private final String target;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    /** @param target the registry's base URL, requests to {@link #url()} + path go to target + path */
    RecordingProxy(String target) throws IOException {
        this.target = target.endsWith("/") ? target.substring(0, target.length() - 1) : target;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::forward);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** {@code METHOD path} of every request so far, in order. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void forward(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        requests.add(ex.getRequestMethod() + " " + path);
        byte[] body = ex.getRequestBody().readAllBytes();
        HttpRequest.Builder out = HttpRequest.newBuilder(URI.create(target + path))
            .method(ex.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        String contentType = ex.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null) {
            out.header("Content-Type", contentType);
        }
        HttpResponse<byte[]> answer;
        try {
            answer = http.send(out.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        answer.headers().firstValue("Content-Type").ifPresent(v -> ex.getResponseHeaders().add("Content-Type", v));
        ex.sendResponseHeaders(answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(answer.body());
        }
    }
}
