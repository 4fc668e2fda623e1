package io.statesync.topology;

import java.util.Map;
import java.util.Properties;

import io.statesync.config.AppConfig;
import io.statesync.topology.internal.DlqProcessingExceptionHandler;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StreamsPropertiesTest {

    @Test
    void shouldHandleProcessingErrorsOfTheGlobalKindsStoreToo() {
        StreamsConfig streams = new StreamsConfig(StatesyncTopology.streamsProperties(
            new AppConfig(Map.of()), ReconcileMetrics.global()));

        assertThat(streams.getClass(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG))
            .isEqualTo(DlqProcessingExceptionHandler.class);
        assertThat(streams.getBoolean(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG)).isTrue();
    }

    @Test
    void shouldLetAStreamsSettingOverrideTheDefaults() {
        Properties p = StatesyncTopology.streamsProperties(new AppConfig(Map.of(
            "streams." + StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "false",
            AppConfig.COMMIT_INTERVAL_MS, "20")), ReconcileMetrics.global());

        assertThat(p.get(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG)).isEqualTo("false");
        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(20L);
    }
}
