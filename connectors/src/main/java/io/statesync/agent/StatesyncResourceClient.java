package io.statesync.agent;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An agent's client of statesync's REST API ({@code /api/v1/resources}) for the writes that are not corrections:
 * reading an object, replacing it conditionally, and {@link #update}, the read-modify-write that retries on conflict.
 * Refusals are {@link StatesyncApiException}s; an interrupted request is an {@link InterruptedIOException} with the
 * thread's interrupt flag set. Thread-safe.
 */
public final class StatesyncResourceClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient http;
    private final String server;
    private final String token;

    /** A client of the instance at {@code server} (such as {@code http://127.0.0.1:8080}); {@code token} may be null. */
    public StatesyncResourceClient(URI server, String token) {
        this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), server, token);
    }

    public StatesyncResourceClient(HttpClient http, URI server, String token) {
        this.http = http;
        String s = server.toString();
        this.server = s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
        this.token = token;
    }

    /** The object as stored; 404 and every other refusal are {@link StatesyncApiException}s. */
    public ObjectNode get(ResourceRef ref) throws IOException {
        return get(ref, null);
    }

    /** The object at {@code notOlderThan} or a newer version ({@code ?resourceVersion=}); null asks no minimum. */
    public ObjectNode get(ResourceRef ref, String notOlderThan) throws IOException {
        String query = notOlderThan == null || notOlderThan.isEmpty() ? "" : "?resourceVersion=" + enc(notOlderThan);
        return send(request(ref, query).GET());
    }

    /**
     * Creates or replaces the object; the answer is the object as stored. When {@code object} carries
     * {@code metadata.resourceVersion}, the write is conditional on it (If-Match) and a newer version makes it a
     * conflict ({@link StatesyncApiException#isConflict}).
     */
    public ObjectNode put(ResourceRef ref, ObjectNode object) throws IOException {
        HttpRequest.Builder b = request(ref, "").header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(object.toString()));
        JsonNode version = object.path("metadata").path("resourceVersion");
        if (version.isTextual() && !version.asText().isEmpty()) {
            b.header("If-Match", "\"" + version.asText() + "\"");
        }
        return send(b);
    }

    /**
     * Read-modify-write: reads the object, applies {@code change} to a copy of it, and writes the result on the
     * condition that the object is still at the version read; when another write came first (409 Conflict), it reads
     * again, from at least the version that won, and repeats the change, as {@code backoff} allows. A change that
     * leaves the object as read writes nothing. {@code change} may run several times and must compute its result from
     * its argument only. Returns the object as written; a refusal that is not a conflict (404 when the object does
     * not exist, 422, 504, ...) and the conflict of the last attempt are thrown as they came.
     */
    public ObjectNode update(ResourceRef ref, ConflictRetry.Backoff backoff, UnaryOperator<ObjectNode> change)
            throws IOException, InterruptedException {
        AtomicReference<String> winner = new AtomicReference<>();
        return ConflictRetry.retryOnConflict(backoff, () -> {
            ObjectNode read = get(ref, winner.get());
            ObjectNode changed = change.apply(read.deepCopy());
            if (changed.equals(read)) {
                return read;
            }
            changed.withObject("/metadata").put("resourceVersion", read.path("metadata").path("resourceVersion").asText());
            try {
                return put(ref, changed);
            } catch (StatesyncApiException e) {
                winner.set(e.resourceVersion());
                throw e;
            }
        });
    }

    private HttpRequest.Builder request(ResourceRef ref, String query) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server + "/api/v1/resources/" + enc(ref.kind()) + "/"
            + enc(ref.namespace()) + "/" + enc(ref.name()) + query)).timeout(REQUEST_TIMEOUT)
            .header("Accept", "application/json");
        if (token != null && !token.isEmpty()) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    private ObjectNode send(HttpRequest.Builder b) throws IOException {
        HttpResponse<String> r;
        try {
            r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException io = new InterruptedIOException("interrupted");
            io.initCause(e);
            throw io;
        }
        JsonNode body = parse(r.body());
        if (r.statusCode() / 100 != 2) {
            throw refusal(r.statusCode(), body, r.body());
        }
        if (!(body instanceof ObjectNode o)) {
            throw new IOException("HTTP " + r.statusCode() + " without a JSON object: " + abbreviate(r.body()));
        }
        return o;
    }

    private static StatesyncApiException refusal(int status, JsonNode body, String raw) {
        if (body == null || !body.has("reason")) {
            return new StatesyncApiException(status, "", abbreviate(raw), null);
        }
        JsonNode version = body.get("resourceVersion");
        return new StatesyncApiException(status, body.path("reason").asText(), body.path("message").asText(),
            status == 409 && version != null && version.isTextual() ? version.asText() : null);
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? null : JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
