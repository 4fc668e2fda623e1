package io.statesync.registry.internal;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.statesync.registry.RegistryClientConfig;
import io.statesync.registry.SchemaRegistryException;

/**
 * JSON over HTTP to a Confluent-compatible registry: auth headers, failover between URLs, retries with
 * exponential backoff and jitter for failures that may pass, and no retry for an answer that will not change.
 */
public final class RegistryTransport {

    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final String ACCEPT = CONTENT_TYPE + ", application/vnd.schemaregistry+json; qs=0.9, application/json; qs=0.5";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<URI> urls;
    private final String authorization;
    private final Duration requestTimeout;
    private final int retries;
    private final Duration backoff;
    private final Duration backoffMax;
    private final HttpClient http;
    /** The URL that answered last; a connection failure moves on to the next one. */
    private final AtomicInteger current = new AtomicInteger();

    public RegistryTransport(RegistryClientConfig config) {
        this.urls = config.urls().stream().map(RegistryTransport::withoutTrailingSlash).toList();
        this.authorization = authorization(config);
        this.requestTimeout = config.requestTimeout();
        this.retries = config.retries();
        this.backoff = config.retryBackoff();
        this.backoffMax = config.retryBackoffMax();
        HttpClient.Builder builder = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(config.connectTimeout());
        if (config.truststoreLocation() != null) {
            builder.sslContext(SslContexts.fromTruststore(config.truststoreLocation(),
                config.truststorePassword(), config.truststoreType()));
        }
        this.http = builder.build();
    }

    /**
     * Sends a request and returns the parsed JSON answer.
     *
     * @param path the path below the base URL, already encoded, starting with a slash
     * @param body the JSON request body, or null for none
     */
    public JsonNode send(String method, String path, Object body) {
        String payload = body == null ? null : write(body);
        SchemaRegistryException last = null;
        for (int attempt = 0; attempt <= retries; attempt++) {
            if (attempt > 0) {
                sleep(attempt, last);
            }
            int index = current.get();
            try {
                HttpResponse<String> response = http.send(request(urls.get(index), method, path, payload),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                if (response.statusCode() / 100 == 2) {
                    return read(response.body());
                }
                last = answered(method, path, response);
                if (!last.isRetriable()) {
                    throw last;
                }
            } catch (IOException e) {
                current.compareAndSet(index, (index + 1) % urls.size());
                last = new SchemaRegistryException("Schema registry " + method + " " + urls.get(index) + path
                    + " could not be reached: " + e, SchemaRegistryException.NO_STATUS,
                    SchemaRegistryException.NO_ERROR_CODE, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw interrupted(method, path, e);
            }
        }
        throw new SchemaRegistryException(last.getMessage() + " (gave up after " + (retries + 1) + " attempts)",
            last.status(), last.errorCode(), last);
    }

    /** Percent-encodes one path segment; subjects may hold any character. */
    public static String segment(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private HttpRequest request(URI base, String method, String path, String payload) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
            .timeout(requestTimeout)
            .header("Accept", ACCEPT)
            .method(method, payload == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(payload, StandardCharsets.UTF_8));
        if (payload != null) {
            b.header("Content-Type", CONTENT_TYPE);
        }
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b.build();
    }

    private static SchemaRegistryException answered(String method, String path, HttpResponse<String> response) {
        JsonNode body = readQuietly(response.body());
        int code = body.path("error_code").asInt(SchemaRegistryException.NO_ERROR_CODE);
        String message = body.path("message").asText(response.body());
        return new SchemaRegistryException("Schema registry " + method + " " + path + " failed: HTTP "
            + response.statusCode() + ", error code " + code + ": " + message, response.statusCode(), code, null);
    }

    /** Full jitter between half and all of the capped exponential delay, so clients restarted together spread out. */
    private void sleep(int attempt, SchemaRegistryException cause) {
        long cap = Math.min(backoffMax.toMillis(), backoff.toMillis() << Math.min(attempt - 1, 30));
        long delay = cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1);
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException("Interrupted while retrying: " + cause.getMessage(),
                cause.status(), cause.errorCode(), e);
        }
    }

    private static SchemaRegistryException interrupted(String method, String path, InterruptedException e) {
        return new SchemaRegistryException("Interrupted during schema registry " + method + " " + path,
            SchemaRegistryException.NO_STATUS, SchemaRegistryException.NO_ERROR_CODE, e);
    }

    private static String authorization(RegistryClientConfig config) {
        if (config.basicAuthUserInfo() != null) {
            return "Basic " + Base64.getEncoder().encodeToString(
                config.basicAuthUserInfo().getBytes(StandardCharsets.UTF_8));
        }
        return config.bearerToken() == null ? null : "Bearer " + config.bearerToken();
    }

    private static URI withoutTrailingSlash(URI u) {
        String s = u.toString();
        return s.endsWith("/") ? URI.create(s.substring(0, s.length() - 1)) : u;
    }

    private static String write(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot write registry request body", e);
        }
    }

    private static JsonNode read(String body) {
        try {
            return body == null || body.isBlank() ? MissingNode.getInstance() : JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new SchemaRegistryException("Schema registry answered with invalid JSON: " + e.getOriginalMessage(),
                200, SchemaRegistryException.NO_ERROR_CODE, e);
        }
    }

    private static JsonNode readQuietly(String body) {
        try {
            return read(body);
        } catch (SchemaRegistryException e) {
            return MissingNode.getInstance();
        }
    }
}
