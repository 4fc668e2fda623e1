package io.statesync.serde;

import io.statesync.registry.RegistryClientConfig;

/**
 * Configuration keys of the Avro serdes. They are Confluent's names, so that an existing client configuration
 * carries over; pass them in the map given to {@code configure} or {@link AvroSerdes}.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #SCHEMA_REGISTRY_URL}</td><td>(required)</td><td>comma-separated base URLs, or
 *     {@code mock://scope} for the in-process test registry</td></tr>
 *   <tr><td>{@value #AUTO_REGISTER_SCHEMAS}</td><td>true</td><td>register the writer schema on first use; when false
 *     the schema must already be registered (looked up with {@code POST /subjects/{s}})</td></tr>
 *   <tr><td>{@value #BASIC_AUTH_USER_INFO}</td><td></td><td>{@code user:password} for basic auth</td></tr>
 *   <tr><td>{@value #BEARER_AUTH_TOKEN}</td><td></td><td>a static bearer token</td></tr>
 *   <tr><td>{@value #TRUSTSTORE_LOCATION}, {@value #TRUSTSTORE_PASSWORD}, {@value #TRUSTSTORE_TYPE}</td>
 *     <td>JVM default, -, JKS</td><td>certificates to trust for https registry URLs</td></tr>
 *   <tr><td>{@value #CONNECT_TIMEOUT_MS}, {@value #REQUEST_TIMEOUT_MS}</td><td>10000, 30000</td><td></td></tr>
 *   <tr><td>{@value #RETRIES}</td><td>5</td><td>retries of connection failures, 408, 429 and 5xx</td></tr>
 *   <tr><td>{@value #RETRY_BACKOFF_MS}, {@value #RETRY_BACKOFF_MAX_MS}</td><td>100, 5000</td><td>exponential
 *     backoff with jitter between retries</td></tr>
 * </table>
 *
 * <p>Subjects follow TopicNameStrategy: {@code <topic>-value}, or {@code <topic>-key} for a key serde.
 */
public final class SerdeConfig {

    public static final String SCHEMA_REGISTRY_URL = RegistryClientConfig.URL;
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    public static final String BASIC_AUTH_USER_INFO = RegistryClientConfig.BASIC_AUTH_USER_INFO;
    public static final String BEARER_AUTH_TOKEN = RegistryClientConfig.BEARER_AUTH_TOKEN;
    public static final String TRUSTSTORE_LOCATION = RegistryClientConfig.TRUSTSTORE_LOCATION;
    public static final String TRUSTSTORE_PASSWORD = RegistryClientConfig.TRUSTSTORE_PASSWORD;
    public static final String TRUSTSTORE_TYPE = RegistryClientConfig.TRUSTSTORE_TYPE;
    public static final String CONNECT_TIMEOUT_MS = RegistryClientConfig.CONNECT_TIMEOUT_MS;
    public static final String REQUEST_TIMEOUT_MS = RegistryClientConfig.REQUEST_TIMEOUT_MS;
    public static final String RETRIES = RegistryClientConfig.RETRIES;
    public static final String RETRY_BACKOFF_MS = RegistryClientConfig.RETRY_BACKOFF_MS;
    public static final String RETRY_BACKOFF_MAX_MS = RegistryClientConfig.RETRY_BACKOFF_MAX_MS;

    private SerdeConfig() {
    }

    /** The subject a topic's keys or values are registered under (TopicNameStrategy). */
    public static String subject(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }
}
