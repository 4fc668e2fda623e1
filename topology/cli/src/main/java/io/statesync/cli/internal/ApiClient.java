package io.statesync.cli.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A small HTTP client for the statesync REST API, used by the CLI commands. */
public final class ApiClient {

    /** One answer; {@code json} is null when the body is not JSON. */
    public record Response(int status, JsonNode json, String body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The error message of a {code, reason, message} body, or the raw body. */
        public String error() {
            if (json != null && json.has("message")) {
                return json.path("reason").asText() + ": " + json.path("message").asText();
            }
            return "HTTP " + status + (body == null || body.isBlank() ? "" : ": " + body);
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String server;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ApiClient(String server, String token) {
        this.server = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
        this.token = token;
    }

    public Response get(String path) throws IOException {
        return send("GET", path, null, null, Map.of());
    }

    public Response put(String path, JsonNode body) throws IOException {
        return send("PUT", path, body.toString(), "application/json", Map.of());
    }

    public Response delete(String path, String ifMatch) throws IOException {
        return send("DELETE", path, null, null, ifMatch == null ? Map.of() : Map.of("If-Match", "\"" + ifMatch + "\""));
    }

    /**
     * Read-modify-write of the resource at {@code path}: reads it, applies {@code change} to a copy, and PUTs the
     * result with {@code If-Match} on the version read; when another write came first (409 Conflict) it reads again,
     * from at least the version that won, and repeats the change, as {@code backoff} allows. {@code change} may run
     * several times and must compute its result from its argument only. Returns the PUT's answer; the read's when it
     * failed (404, ...) or when the change left the object as read (nothing is written); the last conflict when every
     * step lost its race.
     */
    public Response update(String path, ConflictRetry.Backoff backoff, UnaryOperator<ObjectNode> change)
            throws IOException {
        String[] winner = {null};
        return ConflictRetry.retryOnConflict(backoff, () -> {
            Response read = get(path + query(Collections.singletonMap("resourceVersion", winner[0])));
            if (!read.ok() || !(read.json() instanceof ObjectNode current)) {
                return read;
            }
            ObjectNode changed = change.apply(current.deepCopy());
            if (changed.equals(current)) {
                return read;
            }
            String version = current.path("metadata").path("resourceVersion").asText();
            Response written = send("PUT", path, changed.toString(), "application/json",
                Map.of("If-Match", "\"" + version + "\""));
            if (ConflictRetry.isConflict(written)) {
                winner[0] = written.json().path("resourceVersion").asText(null);
            }
            return written;
        });
    }

    public Response send(String method, String path, String body, String contentType, Map<String, String> headers)
        throws IOException {
        return send(method, path, body, contentType, headers, Duration.ofSeconds(60));
    }

    /** {@link #send} that waits up to {@code timeout} for the answer: for writes the server holds until they converge. */
    public Response send(String method, String path, String body, String contentType, Map<String, String> headers,
                         Duration timeout) throws IOException {
        HttpRequest.Builder b = request(path).timeout(timeout);
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        headers.forEach(b::header);
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), parse(r.body()), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Opens a streaming GET (Server-Sent Events); the caller reads and closes the stream. */
    public HttpResponse<InputStream> stream(String path) throws IOException {
        try {
            return http.send(request(path).header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server + path));
        if (token != null && !token.isEmpty()) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    /** The JSON of {@code body}; null when it is blank or not JSON. */
    public static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code ?a=1&b=2} from the non-blank entries, URL-encoded; empty when there are none. */
    public static String query(Map<String, String> params) {
        StringJoiner j = new StringJoiner("&", "?", "");
        j.setEmptyValue("");
        params.forEach((k, v) -> {
            if (v != null && !v.isBlank()) {
                j.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        });
        return j.toString();
    }

    public static String resourcePath(String key) {
        String[] parts = key.split("/", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("a resource is named KIND/NAMESPACE/NAME, got '" + key + "'");
        }
        return "/api/v1/resources/" + enc(parts[0]) + "/" + enc(parts[1]) + "/" + enc(parts[2]);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
