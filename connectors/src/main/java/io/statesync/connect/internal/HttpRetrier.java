package io.statesync.connect.internal;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends a request with retries and exponential backoff. Connection errors, 408, 429 and 5xx are retried; other
 * statuses are final, since repeating a request the server rejected cannot succeed.
 */
public final class HttpRetrier {

    /** How the retrier waits; tests record instead of sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final HttpClient client;
    private final int maxRetries;
    private final Duration backoff;
    private final Duration backoffMax;
    private final Sleeper sleeper;

    public HttpRetrier(HttpClient client, int maxRetries, Duration backoff, Duration backoffMax, Sleeper sleeper) {
        this.client = client;
        this.maxRetries = maxRetries;
        this.backoff = backoff;
        this.backoffMax = backoffMax;
        this.sleeper = sleeper;
    }

    /** Returns the 2xx response body, or throws {@link HttpDeliveryException} once retries are spent. */
    public String send(HttpRequest request) throws HttpDeliveryException, InterruptedException {
        HttpDeliveryException last = null;
        for (int attempt = 0; attempt <= maxRetries; attempt++) {
            if (attempt > 0) {
                sleeper.sleep(delay(attempt));
            }
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status / 100 == 2) {
                    return response.body();
                }
                last = new HttpDeliveryException(request.method() + " " + request.uri() + " returned " + status
                    + ": " + abbreviate(response.body()), status, null);
                if (!retryable(status)) {
                    throw last;
                }
            } catch (IOException e) {
                last = new HttpDeliveryException(request.method() + " " + request.uri() + " failed: " + e, -1, e);
            }
        }
        throw last;
    }

    Duration delay(int retry) {
        long millis = backoff.toMillis() << Math.min(retry - 1, 20);
        return Duration.ofMillis(Math.min(millis, backoffMax.toMillis()));
    }

    private static boolean retryable(int status) {
        return status == 408 || status == 429 || status >= 500;
    }

    private static String abbreviate(String body) {
        return body == null ? "" : body.length() > 200 ? body.substring(0, 200) + "..." : body;
    }

    /** Delivery failed for good; {@code status} is -1 for a connection error. */
    public static final class HttpDeliveryException extends Exception {
        private final int status;

        public HttpDeliveryException(String message, int status, Throwable cause) {
            super(message, cause);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
