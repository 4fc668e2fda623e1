package io.statesync.topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.statesync.avro.KindPolicy;
import io.statesync.avro.Reason;
import io.statesync.config.AppConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The timer's work per punctuation stays bounded, so that a million due keys never stall a commit. */
class BoundedTimerTest {

    @TempDir
    Path stateDir;

    @Test
    void shouldRetryAtMostTheConfiguredWritesPerPunctuation() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of(AppConfig.RESYNC_MAX_KEYS, 5, AppConfig.RESYNC_MAX_WRITES, 5))) {
            f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setCorrectionDeadlineMs(1_000L)
                .setBackoffBaseMs(1L).setBackoffCapMs(1L).setMaxAttempts(5).build());
            for (int i = 0; i < 20; i++) {
                f.putDesired(TopologyFixture.desiredState("WebApp/default/app-" + i, Map.of("replicas", 1L)));
            }
            assertThat(f.drainCorrections()).hasSize(20);
            f.advance(Duration.ofMillis(1_100));
            long first = f.drainCorrections().stream().filter(c -> c.getReason() == Reason.Retry).count();
            assertThat(first).isBetween(1L, 5L);
            for (int i = 0; i < 10; i++) {
                f.advance(Duration.ofMillis(100));
            }
            assertThat(first + f.drainCorrections().stream().filter(c -> c.getReason() == Reason.Retry).count())
                .as("every key is retried eventually").isEqualTo(20);
        }
    }
}
