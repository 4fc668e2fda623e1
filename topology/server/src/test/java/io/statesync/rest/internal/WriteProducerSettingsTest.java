package io.statesync.rest.internal;

import java.util.HashMap;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WriteProducerSettingsTest {

    private static AppConfig config(Map<String, Object> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, "localhost:1");
        p.put(AppConfig.SCHEMA_REGISTRY_URL, "http://localhost:2");
        p.putAll(extra);
        return new AppConfig(p);
    }

    private static long ms(Map<String, Object> p, String key) {
        return Long.parseLong(p.get(key).toString());
    }

    @Test
    void shouldBoundBlockingAndDeliveryBelowTheAdmissionTimeoutByDefault() {
        Map<String, Object> p = WriteProducerSettings.of(config(Map.of(ServerConfig.ADMISSION_TIMEOUT_MS, 10_000L)));

        assertThat(ms(p, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)).isEqualTo(5_000);
        assertThat(ms(p, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG)).isEqualTo(5_000);
        assertThat(ms(p, ProducerConfig.LINGER_MS_CONFIG)).isZero();
        assertThat(ms(p, ProducerConfig.MAX_BLOCK_MS_CONFIG)).isEqualTo(2_500);
        assertThat(ms(p, ProducerConfig.MAX_BLOCK_MS_CONFIG) + ms(p, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG))
            .isLessThan(10_000);
        assertThat(p.get(ProducerConfig.ACKS_CONFIG)).isEqualTo("all");
    }

    @Test
    void shouldFollowTheAdmissionTimeoutAtItsSmallestAndLargest() {
        for (long admission : new long[] {100, 600_000}) {
            Map<String, Object> p = WriteProducerSettings.of(config(Map.of(ServerConfig.ADMISSION_TIMEOUT_MS, admission)));
            assertThat(ms(p, ProducerConfig.MAX_BLOCK_MS_CONFIG) + ms(p, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG))
                .isLessThan(admission);
            assertThat(ms(p, ProducerConfig.LINGER_MS_CONFIG) + ms(p, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG))
                .isLessThanOrEqualTo(ms(p, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        }
    }

    @Test
    void shouldKeepAnOverrideThatRespectsTheBound() {
        Map<String, Object> p = WriteProducerSettings.of(config(Map.of(ServerConfig.ADMISSION_TIMEOUT_MS, 10_000L,
            "producer.delivery.timeout.ms", "3000", "producer.linger.ms", "5")));

        assertThat(ms(p, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)).isEqualTo(3_000);
        assertThat(ms(p, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG)).isEqualTo(2_995);
    }

    @Test
    void shouldRefuseToStartWithAProducerOverrideThatCouldLandA504dWriteLater() {
        assertThatThrownBy(() -> WriteProducerSettings.of(config(Map.of(ServerConfig.ADMISSION_TIMEOUT_MS, 10_000L,
            "producer.delivery.timeout.ms", "120000"))))
            .isInstanceOf(ConfigException.class).hasMessageContaining("admission.timeout.ms");
        assertThatThrownBy(() -> WriteProducerSettings.of(config(Map.of(ServerConfig.ADMISSION_TIMEOUT_MS, 10_000L,
            "kafka.max.block.ms", "60000"))))
            .isInstanceOf(ConfigException.class).hasMessageContaining("max.block.ms (60000)");
        assertThatThrownBy(() -> WriteProducerSettings.of(config(Map.of(
            "producer.delivery.timeout.ms", "1000", "producer.request.timeout.ms", "2000"))))
            .isInstanceOf(ConfigException.class).hasMessageContaining("linger.ms + request.timeout.ms");
    }
}
