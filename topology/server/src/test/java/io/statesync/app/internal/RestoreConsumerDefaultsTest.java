package io.statesync.app.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class RestoreConsumerDefaultsTest {

    private static final String RESTORE_POLL = StreamsConfig.restoreConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);

    @Test
    void shouldGiveOnlyTheRestoreConsumerLargerPollsAndFetches() {
        Properties props = new Properties();
        RestoreConsumerDefaults.applyTo(props);

        assertThat(props).containsEntry(RESTORE_POLL, RestoreConsumerDefaults.MAX_POLL_RECORDS)
            .containsEntry(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG),
                RestoreConsumerDefaults.MAX_PARTITION_FETCH_BYTES)
            .containsEntry(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_BYTES_CONFIG), RestoreConsumerDefaults.FETCH_MAX_BYTES)
            .doesNotContainKey(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG))
            .doesNotContainKey(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG));
    }

    @Test
    void shouldShortenOnlyTheRestoreConsumersLongPoll() {
        Properties props = new Properties();
        RestoreConsumerDefaults.applyTo(props);

        assertThat(props).containsEntry(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
                RestoreConsumerDefaults.FETCH_MAX_WAIT_MS)
            .doesNotContainKey(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG));
        assertThat(RestoreConsumerDefaults.FETCH_MAX_WAIT_MS).isLessThan(ConsumerConfig.DEFAULT_FETCH_MAX_WAIT_MS);
    }

    @Test
    void shouldKeepWhatTheOperatorSetForTheRestoreConsumer() {
        Properties props = new Properties();
        props.put(RESTORE_POLL, 250);
        RestoreConsumerDefaults.applyTo(props);

        assertThat(props).containsEntry(RESTORE_POLL, 250);
    }

    @Test
    void shouldKeepWhatTheOperatorSetForAllConsumers() {
        Properties props = new Properties();
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 250);
        RestoreConsumerDefaults.applyTo(props);

        assertThat(props).doesNotContainKey(RESTORE_POLL)
            .containsKey(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_BYTES_CONFIG));
    }
}
