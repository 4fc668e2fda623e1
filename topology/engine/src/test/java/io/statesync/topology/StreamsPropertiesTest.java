package io.statesync.topology;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.topology.internal.DlqProcessingExceptionHandler;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StreamsPropertiesTest {

    @Test
    void shouldHandleProcessingErrorsOfTheGlobalKindsStoreToo() {
        StreamsConfig streams = new StreamsConfig(StatesyncTopology.streamsProperties(
            new AppConfig(Map.of()), metrics()));

        assertThat(streams.getClass(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG))
            .isEqualTo(DlqProcessingExceptionHandler.class);
        assertThat(streams.getBoolean(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG)).isTrue();
    }

    @Test
    void shouldLetTheStreamThreadsProduceTheLargestRecordAnInputCanCause() {
        AppConfig config = new AppConfig(Map.of(AppConfig.SPEC_MAX_BYTES, 65_536));
        StreamsConfig streams = new StreamsConfig(StatesyncTopology.streamsProperties(config, metrics()));
        int largest = 6 * 65_536 + 1_048_576;

        assertThat(OutputLimits.maxRecordBytes(config)).isEqualTo(largest);
        assertThat(producerConfig(Map.of(AppConfig.SPEC_MAX_BYTES, "65536")).getInt(ProducerConfig.MAX_REQUEST_SIZE_CONFIG))
            .isEqualTo(largest);
        assertThat(streams.originals().get(StreamsConfig.topicPrefix("max.message.bytes"))).isEqualTo(Integer.toString(largest));
        assertThat(streams.getClass(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG))
            .isEqualTo(io.statesync.topology.internal.DlqProductionExceptionHandler.class);
    }

    @Test
    void shouldLetAStreamsSettingOverrideTheDefaults() {
        Properties p = StatesyncTopology.streamsProperties(new AppConfig(Map.of(
            "streams." + StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "false",
            AppConfig.COMMIT_INTERVAL_MS, "20")), metrics());

        assertThat(p.get(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG)).isEqualTo("false");
        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(20L);
    }

    @Test
    void shouldGiveTransactionalProducersLargerBatches() {
        ProducerConfig producer = producerConfig(Map.of());

        assertThat(producer.getInt(ProducerConfig.BATCH_SIZE_CONFIG)).isEqualTo(256 * 1024);
        assertThat(producer.getLong(ProducerConfig.LINGER_MS_CONFIG)).as("Kafka Streams' own linger").isEqualTo(100L);
    }

    @Test
    void shouldLeaveBatchingToKafkaStreamsAtLeastOnce() {
        Properties p = StatesyncTopology.streamsProperties(new AppConfig(Map.of(
            AppConfig.PROCESSING_GUARANTEE, AppConfig.AT_LEAST_ONCE)), metrics());

        assertThat(p).doesNotContainKey(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG));
        assertThat(producerConfig(Map.of(AppConfig.PROCESSING_GUARANTEE, AppConfig.AT_LEAST_ONCE))
            .getInt(ProducerConfig.BATCH_SIZE_CONFIG)).isEqualTo(withSerializers(Map.of()).getInt(ProducerConfig.BATCH_SIZE_CONFIG));
    }

    @Test
    void shouldLetTheOperatorsBatchSizeWin() {
        assertThat(producerConfig(Map.of("producer.batch.size", "1000")).getInt(ProducerConfig.BATCH_SIZE_CONFIG))
            .isEqualTo(1000);
        // Bare, for every client: Streams lets a producer-prefixed key win over a bare one, so no default may be added.
        assertThat(producerConfig(Map.of("kafka.batch.size", "2000")).getInt(ProducerConfig.BATCH_SIZE_CONFIG))
            .isEqualTo(2000);
        assertThat(producerConfig(Map.of("streams.batch.size", "3000")).getInt(ProducerConfig.BATCH_SIZE_CONFIG))
            .isEqualTo(3000);
    }

    @Test
    void shouldLetTheMainConsumerGatherLargerFetchesUnderExactlyOnce() {
        ConsumerConfig main = mainConsumerConfig(Map.of());

        assertThat(main.getInt(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)).isEqualTo(64 * 1024);
        assertThat(main.getInt(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isEqualTo(5);
        StreamsConfig streams = new StreamsConfig(StatesyncTopology.streamsProperties(new AppConfig(Map.of()),
            metrics()));
        assertThat(streams.getRestoreConsumerConfigs("client")).as("restores keep Kafka's fetch settings")
            .doesNotContainKeys(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG);
    }

    @Test
    void shouldWaitForAFetchNoLongerThanTheCommitInterval() {
        assertThat(mainConsumerConfig(Map.of(AppConfig.COMMIT_INTERVAL_MS, "3")).getInt(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG))
            .isEqualTo(3);
    }

    @Test
    void shouldLeaveFetchingToKafkaAtLeastOnce() {
        Properties p = StatesyncTopology.streamsProperties(new AppConfig(Map.of(
            AppConfig.PROCESSING_GUARANTEE, AppConfig.AT_LEAST_ONCE)), metrics());

        assertThat(p).doesNotContainKeys(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG),
            StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG));
    }

    @Test
    void shouldCompressWhatTheStreamThreadsWriteUnderEitherGuarantee() {
        assertThat(producerConfig(Map.of()).getString(ProducerConfig.COMPRESSION_TYPE_CONFIG)).isEqualTo("lz4");
        assertThat(producerConfig(Map.of(AppConfig.PROCESSING_GUARANTEE, AppConfig.AT_LEAST_ONCE))
            .getString(ProducerConfig.COMPRESSION_TYPE_CONFIG)).isEqualTo("lz4");
    }

    @Test
    void shouldLetTheOperatorsCompressionWin() {
        assertThat(producerConfig(Map.of("producer.compression.type", "zstd")).getString(ProducerConfig.COMPRESSION_TYPE_CONFIG))
            .isEqualTo("zstd");
        assertThat(producerConfig(Map.of("kafka.compression.type", "none")).getString(ProducerConfig.COMPRESSION_TYPE_CONFIG))
            .isEqualTo("none");
    }

    @Test
    void shouldLetTheOperatorsFetchSettingsWin() {
        ConsumerConfig main = mainConsumerConfig(Map.of("consumer.fetch.min.bytes", "1", "kafka.fetch.max.wait.ms", "500"));

        assertThat(main.getInt(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)).isEqualTo(1);
        assertThat(main.getInt(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isEqualTo(500);
    }

    /** The configuration a stream thread's main consumer gets from Kafka Streams for these statesync settings. */
    private static ConsumerConfig mainConsumerConfig(Map<String, String> settings) {
        StreamsConfig streams = new StreamsConfig(StatesyncTopology.streamsProperties(new AppConfig(settings),
            metrics()));
        Map<String, Object> all = new HashMap<>(streams.getMainConsumerConfigs("group", "client", 0));
        all.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        all.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new ConsumerConfig(all);
    }

    /** The configuration a stream thread's producer gets from Kafka Streams for these statesync settings. */
    private static ProducerConfig producerConfig(Map<String, String> settings) {
        StreamsConfig streams = new StreamsConfig(StatesyncTopology.streamsProperties(new AppConfig(settings),
            metrics()));
        return withSerializers(streams.getProducerConfigs("client"));
    }

    private static ReconcileMetrics metrics() {
        return new ReconcileMetrics(new SimpleMeterRegistry());
    }

    private static ProducerConfig withSerializers(Map<String, Object> configs) {
        Map<String, Object> all = new HashMap<>(configs);
        all.putIfAbsent(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        all.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        all.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new ProducerConfig(all);
    }
}
