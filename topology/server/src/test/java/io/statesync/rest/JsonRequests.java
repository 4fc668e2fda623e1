package io.statesync.rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The tests' HTTP requests to an instance: one way to send a JSON body with a bearer token and read the answer. */
public final class JsonRequests {

    public static final ObjectMapper JSON = new ObjectMapper();

    private JsonRequests() {
    }

    /**
     * Sends {@code method url} with {@code body} (a String as it is, anything else as JSON; null for none).
     *
     * @param bearer      the token, or null to send none
     * @param contentType the Content-Type, or null to send none
     * @param headers     further headers as name, value pairs
     */
    public static HttpResponse<String> send(HttpClient http, Duration timeout, String url, String bearer, String method,
                                            Object body, String contentType, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(timeout);
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        String text = body == null ? null : body instanceof String s ? s : write(body);
        b.method(method, text == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(text));
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The answer's body as JSON; an assertion error naming the status and body when it is not JSON. */
    public static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON (" + r.statusCode() + "): " + r.body(), e);
        }
    }

    public static String write(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
