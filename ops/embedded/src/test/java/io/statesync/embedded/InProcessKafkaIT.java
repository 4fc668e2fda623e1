package io.statesync.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class InProcessKafkaIT {
    @Test
    void shouldKeepDataAcrossInProcessBrokerRestart() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.inProcess()) {
            KafkaRoundTrip.produce(kafka.start().bootstrapServers(), "kept", List.of("a", "b", "c"));

            kafka.stop();
            assertThat(kafka.isRunning()).isFalse();
            kafka.start();

            assertThat(kafka.pid()).isEmpty();
            assertThat(KafkaRoundTrip.consume(kafka.bootstrapServers(), "kept", 3, Duration.ofSeconds(30)))
                    .containsExactly("a", "b", "c");
        }
    }
}
