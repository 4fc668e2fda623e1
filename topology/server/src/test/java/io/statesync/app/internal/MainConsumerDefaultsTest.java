package io.statesync.app.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class MainConsumerDefaultsTest {

    private static final String MAIN_HEARTBEAT = StreamsConfig.mainConsumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG);

    @Test
    void shouldGiveTheStreamThreadsConsumersAShorterHeartbeatThanTheConsumerDefault() {
        Properties props = new Properties();
        MainConsumerDefaults.applyTo(props);

        assertThat(props).containsEntry(MAIN_HEARTBEAT, MainConsumerDefaults.HEARTBEAT_INTERVAL_MS);
        assertThat(MainConsumerDefaults.HEARTBEAT_INTERVAL_MS)
            .isLessThan((Integer) ConsumerConfig.configDef().defaultValues().get(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG));
    }

    @Test
    void shouldKeepAHeartbeatTheOperatorSetForAllConsumers() {
        Properties props = new Properties();
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 2_000);
        MainConsumerDefaults.applyTo(props);

        assertThat(props).doesNotContainKey(MAIN_HEARTBEAT);
    }

    @Test
    void shouldKeepAHeartbeatTheOperatorSetForTheMainConsumer() {
        Properties props = new Properties();
        props.put(MAIN_HEARTBEAT, 1_000);
        MainConsumerDefaults.applyTo(props);

        assertThat(props).containsEntry(MAIN_HEARTBEAT, 1_000);
    }
}
