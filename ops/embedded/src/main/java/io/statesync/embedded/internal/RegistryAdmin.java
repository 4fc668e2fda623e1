package io.statesync.embedded.internal;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** The few calls the embedded runtime makes to the registry's Confluent API: readiness and global compatibility. */
public final class RegistryAdmin {
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String baseUrl;

    public RegistryAdmin(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** Waits until {@code GET /subjects} answers 200. */
    public void awaitReady(Duration timeout, BooleanSupplier stillStarting) {
        Readiness.await("Schema registry at " + baseUrl, timeout, stillStarting, this::answers);
    }

    private boolean answers() {
        try {
            return get("/subjects").statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sets the global compatibility level, e.g. {@code BACKWARD}. */
    public void setGlobalCompatibility(String level) {
        try {
            HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/config"))
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"" + level + "\"}")));
            if (response.statusCode() != 200) {
                throw new IllegalStateException("Setting compatibility " + level + " on " + baseUrl + " answered "
                        + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot set compatibility " + level + " on " + baseUrl, e);
        }
    }

    public HttpResponse<String> get(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return client.send(request.timeout(Duration.ofSeconds(5)).header("Content-Type", CONTENT_TYPE)
                    .header("Accept", CONTENT_TYPE).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted", e);
        }
    }
}
