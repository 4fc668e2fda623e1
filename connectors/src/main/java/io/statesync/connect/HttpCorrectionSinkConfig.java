package io.statesync.connect;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/** Settings of the {@link HttpCorrectionSinkConnector}. */
public final class HttpCorrectionSinkConfig extends AbstractConfig {

    public static final String URL_TEMPLATE = "http.url.template";
    public static final String UPDATE_METHOD = "http.update.method";
    public static final String AUTH_HEADER_NAME = "http.auth.header.name";
    public static final String AUTH_HEADER_VALUE = "http.auth.header.value";
    public static final String TIMEOUT_MS = "http.timeout.ms";
    public static final String MAX_RETRIES = "http.max.retries";
    public static final String RETRY_BACKOFF_MS = "http.retry.backoff.ms";
    public static final String RETRY_BACKOFF_MAX_MS = "http.retry.backoff.max.ms";

    private static final ConfigDef DEF = new ConfigDef()
        .define(URL_TEMPLATE, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH,
            "Actuator URL with {kind}, {namespace} and {name} placeholders, e.g. "
                + "http://127.0.0.1:9000/apis/{kind}/{namespace}/{name}. Placeholders are URL-encoded.")
        .define(UPDATE_METHOD, Type.STRING, "PUT", ConfigDef.ValidString.in("PUT", "PATCH"), Importance.MEDIUM,
            "Method for UPDATE corrections: PUT sends the desired spec, PATCH sends the field-level patch.")
        .define(AUTH_HEADER_NAME, Type.STRING, "Authorization", Importance.LOW, "Name of the static auth header.")
        .define(AUTH_HEADER_VALUE, Type.PASSWORD, null, Importance.MEDIUM,
            "Value of the static auth header, e.g. 'Bearer <token>'; unset sends no auth header.")
        .define(TIMEOUT_MS, Type.LONG, 10_000L, ConfigDef.Range.atLeast(1), Importance.LOW, "Per-request timeout.")
        .define(MAX_RETRIES, Type.INT, 3, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
            "Retries after a failed attempt (connection error, 408, 429 or 5xx) before the record is dead-lettered.")
        .define(RETRY_BACKOFF_MS, Type.LONG, 200L, ConfigDef.Range.atLeast(0), Importance.LOW,
            "First retry delay; doubles per retry.")
        .define(RETRY_BACKOFF_MAX_MS, Type.LONG, 5_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
            "Cap of the retry delay.");

    public HttpCorrectionSinkConfig(Map<String, ?> props) {
        super(DEF, props);
    }

    public static ConfigDef configDef() {
        return DEF;
    }

    public String urlTemplate() {
        return getString(URL_TEMPLATE);
    }

    public String updateMethod() {
        return getString(UPDATE_METHOD);
    }

    public String authHeaderName() {
        return getString(AUTH_HEADER_NAME);
    }

    /** The secret header value, or null; kept as a {@link Password} until the request is built. */
    public Password authHeaderValue() {
        return getPassword(AUTH_HEADER_VALUE);
    }

    public Duration timeout() {
        return Duration.ofMillis(getLong(TIMEOUT_MS));
    }

    public int maxRetries() {
        return getInt(MAX_RETRIES);
    }

    public Duration retryBackoff() {
        return Duration.ofMillis(getLong(RETRY_BACKOFF_MS));
    }

    public Duration retryBackoffMax() {
        return Duration.ofMillis(getLong(RETRY_BACKOFF_MAX_MS));
    }
}
