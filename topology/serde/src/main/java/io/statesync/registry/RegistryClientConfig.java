package io.statesync.registry;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.types.Password;

/**
 * Settings of {@link HttpSchemaRegistryClient}, read from the same keys as Confluent's client so that existing
 * configuration carries over. Secrets are never printed by {@link #toString()}.
 *
 * @param urls one or more base URLs, tried in turn when one cannot be reached
 * @param basicAuthUserInfo {@code user:password} for HTTP basic auth, or null
 * @param bearerToken a static bearer token, or null
 * @param truststoreLocation a truststore for TLS to the registry, or null for the JVM default
 */
public record RegistryClientConfig(List<URI> urls, String basicAuthUserInfo, String bearerToken,
                                   Path truststoreLocation, String truststorePassword, String truststoreType,
                                   Duration connectTimeout, Duration requestTimeout, int retries,
                                   Duration retryBackoff, Duration retryBackoffMax) {

    /** Comma-separated base URLs, for example {@code http://127.0.0.1:8081/apis/ccompat/v7}. Required. */
    public static final String URL = "schema.registry.url";
    /** {@code user:password} for HTTP basic auth. */
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    /** A static bearer token; exclusive with basic auth. */
    public static final String BEARER_AUTH_TOKEN = "bearer.auth.token";
    public static final String TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
    public static final String TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    /** JKS (default) or PKCS12; the JDK reads either format under either name. */
    public static final String TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";
    public static final String CONNECT_TIMEOUT_MS = "schema.registry.connect.timeout.ms";
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    /** How many times a connection failure, 408, 429 or 5xx is retried; 4xx answers are never retried. */
    public static final String RETRIES = "schema.registry.retries";
    /** The first retry delay; each further retry doubles it, with jitter, up to the maximum. */
    public static final String RETRY_BACKOFF_MS = "schema.registry.retry.backoff.ms";
    public static final String RETRY_BACKOFF_MAX_MS = "schema.registry.retry.backoff.max.ms";

    public static final String DEFAULT_TRUSTSTORE_TYPE = "JKS";
    public static final long DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
    public static final int DEFAULT_RETRIES = 5;
    public static final long DEFAULT_RETRY_BACKOFF_MS = 100;
    public static final long DEFAULT_RETRY_BACKOFF_MAX_MS = 5_000;

    public RegistryClientConfig {
        urls = List.copyOf(urls);
        if (urls.isEmpty()) {
            throw new IllegalArgumentException(URL + " must name at least one registry");
        }
        for (URI u : urls) {
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
                throw new IllegalArgumentException(URL + " must be http or https, not " + u);
            }
        }
        if (basicAuthUserInfo != null && bearerToken != null) {
            throw new IllegalArgumentException("Set either " + BASIC_AUTH_USER_INFO + " or " + BEARER_AUTH_TOKEN + ", not both");
        }
        if (basicAuthUserInfo != null && basicAuthUserInfo.indexOf(':') < 0) {
            throw new IllegalArgumentException(BASIC_AUTH_USER_INFO + " must be user:password");
        }
        if (retries < 0 || connectTimeout.isNegative() || requestTimeout.isNegative() || retryBackoff.isNegative()
            || retryBackoffMax.compareTo(retryBackoff) < 0) {
            throw new IllegalArgumentException("Registry retries and timeouts must not be negative, and the backoff "
                + "maximum not below the backoff");
        }
    }

    /** A client of the given comma-separated URLs, with every other setting at its default. */
    public static RegistryClientConfig of(String urls) {
        return fromMap(Map.of(URL, urls));
    }

    /** Reads the keys above from Kafka-style client configuration; other keys are ignored. */
    public static RegistryClientConfig fromMap(Map<String, ?> config) {
        String urls = string(config, URL);
        if (urls == null) {
            throw new IllegalArgumentException(URL + " is required");
        }
        String truststore = string(config, TRUSTSTORE_LOCATION);
        String type = string(config, TRUSTSTORE_TYPE);
        return new RegistryClientConfig(
            Arrays.stream(urls.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(URI::create).toList(),
            string(config, BASIC_AUTH_USER_INFO), string(config, BEARER_AUTH_TOKEN),
            truststore == null ? null : Path.of(truststore), string(config, TRUSTSTORE_PASSWORD),
            type == null ? DEFAULT_TRUSTSTORE_TYPE : type,
            millis(config, CONNECT_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS),
            millis(config, REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS),
            (int) number(config, RETRIES, DEFAULT_RETRIES),
            millis(config, RETRY_BACKOFF_MS, DEFAULT_RETRY_BACKOFF_MS),
            millis(config, RETRY_BACKOFF_MAX_MS, DEFAULT_RETRY_BACKOFF_MAX_MS));
    }

    @Override
    public String toString() {
        return "RegistryClientConfig[urls=" + urls + ", auth=" + (basicAuthUserInfo != null ? "basic"
            : bearerToken != null ? "bearer" : "none") + ", truststore=" + truststoreLocation
            + ", retries=" + retries + "]";
    }

    /** Blank values count as unset, so an empty environment variable does not turn auth on. */
    private static String string(Map<String, ?> config, String key) {
        Object v = config.get(key);
        String s = v instanceof Password p ? p.value() : v == null ? null : v.toString().trim();
        return s == null || s.isEmpty() ? null : s;
    }

    private static long number(Map<String, ?> config, String key, long fallback) {
        String s = string(config, key);
        try {
            return s == null ? fallback : Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, not " + s, e);
        }
    }

    private static Duration millis(Map<String, ?> config, String key, long fallback) {
        return Duration.ofMillis(number(config, key, fallback));
    }
}
