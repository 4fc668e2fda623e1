package io.statesync.app.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class ProducerDefaultsTest {

    private static final String PRODUCER_BACKOFF = StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG);

    @Test
    void shouldGiveTheProducersAShorterFirstRetryThanTheClientDefault() {
        Properties props = new Properties();
        ProducerDefaults.applyTo(props);

        assertThat(props).containsEntry(PRODUCER_BACKOFF, ProducerDefaults.RETRY_BACKOFF_MS);
        assertThat((long) ProducerDefaults.RETRY_BACKOFF_MS)
            .isLessThan((Long) ProducerConfig.configDef().defaultValues().get(ProducerConfig.RETRY_BACKOFF_MS_CONFIG));
    }

    @Test
    void shouldKeepABackoffTheOperatorSetForTheProducers() {
        Properties props = new Properties();
        props.put(PRODUCER_BACKOFF, 250);
        ProducerDefaults.applyTo(props);

        assertThat(props).containsEntry(PRODUCER_BACKOFF, 250);
    }

    @Test
    void shouldKeepABackoffTheOperatorSetForEveryClient() {
        Properties props = new Properties();
        props.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 300);
        ProducerDefaults.applyTo(props);

        assertThat(props).doesNotContainKey(PRODUCER_BACKOFF);
    }
}
