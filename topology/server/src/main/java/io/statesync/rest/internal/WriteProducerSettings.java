package io.statesync.rest.internal;

import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;

/**
 * The settings of the producer behind REST writes, derived from {@code admission.timeout.ms} in this one place.
 *
 * <p>A write answered 504 must not be recorded afterwards, or it could overwrite a write acknowledged after it. The
 * producer reports a record's fate at most {@code max.block.ms} (send blocking on metadata or buffer space) plus
 * {@code delivery.timeout.ms} (which covers {@code linger.ms} and {@code request.timeout.ms}) after the call; so
 * with their sum below the admission timeout, a record Kafka did not acknowledge by the time the write answers 504
 * has failed for good, and one it did acknowledge is what the 504's message calls an unknown outcome. By default
 * {@code max.block.ms} is a quarter of the admission timeout and {@code delivery.timeout.ms} and
 * {@code request.timeout.ms} half of it, which leaves a quarter for admission to answer.
 *
 * <p>An operator's own values for these keys ({@code producer.*} or {@code kafka.*}) are kept when they respect the
 * bound and stop the start with a {@link ConfigException} when they do not: a silent clamp would hide a setting
 * that does not do what its author meant.
 */
public final class WriteProducerSettings {

    private WriteProducerSettings() {
    }

    /** The REST producer's properties for {@code config}; throws ConfigException when overrides break the bound. */
    public static Map<String, Object> of(AppConfig config) {
        long admission = config.getLong(ServerConfig.ADMISSION_TIMEOUT_MS);
        Map<String, Object> p = config.clientProps(AppConfig.PRODUCER_PREFIX);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, config.getString(AppConfig.APPLICATION_ID) + "-rest-writer");
        long linger = defaulted(p, ProducerConfig.LINGER_MS_CONFIG, 0);
        long delivery = defaulted(p, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, admission / 2);
        long request = defaulted(p, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1, delivery - linger));
        long block = defaulted(p, ProducerConfig.MAX_BLOCK_MS_CONFIG, admission / 4);
        if (linger + request > delivery) {
            throw new ConfigException(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, delivery, "the REST producer's "
                + "delivery.timeout.ms must be at least linger.ms + request.timeout.ms (" + (linger + request) + ")");
        }
        if (block + delivery >= admission) {
            throw new ConfigException(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, delivery, "the REST producer's "
                + "max.block.ms (" + block + ") + delivery.timeout.ms (" + delivery + ") must stay below "
                + ServerConfig.ADMISSION_TIMEOUT_MS + " (" + admission + "), or a write answered 504 could still be "
                + "recorded and applied after its answer; lower them or raise " + ServerConfig.ADMISSION_TIMEOUT_MS);
        }
        return p;
    }

    /** The operator's value of {@code key}, or {@code derived} put in its place. */
    private static long defaulted(Map<String, Object> p, String key, long derived) {
        Object given = p.get(key);
        if (given == null) {
            p.put(key, (int) Math.min(Integer.MAX_VALUE, derived));
            return derived;
        }
        try {
            long v = Long.parseLong(given.toString().trim());
            if (v < 0) {
                throw new ConfigException(key, given, "must not be negative");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new ConfigException(key, given, "must be a whole number of milliseconds");
        }
    }
}
