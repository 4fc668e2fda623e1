package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CI-sized run of {@link RestFuzzScenario}: 5,000 bad requests against a child statesync with a 96 MB heap.
 * {@code -Drest.fuzz.seed=N} replays a run; {@code SoakMain --scenario rest-fuzz --requests N} runs a longer one.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestFuzzIT {

    private static final int REQUESTS = 5_000;
    /** Several times the child's heap: a server that buffered a chunked body whole would run out of memory. */
    private static final long HUGE_CHUNKED_BYTES = 128L * 1_048_576;

    @TempDir
    Path workDir;

    @Test
    void shouldAnswerEveryBadRequestWithA4xxJsonErrorAndStayHealthyOnASmallHeap(EmbeddedCluster cluster) throws Exception {
        long seed = Long.getLong("rest.fuzz.seed", System.nanoTime());
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(),
            workDir.resolve("state"), Map.of());

        RestFuzzScenario.Report report = new RestFuzzScenario(config, workDir)
            .run(REQUESTS, seed, 4, HUGE_CHUNKED_BYTES, Duration.ofSeconds(90));
        System.out.println(report);

        assertThat(report.requests()).as("seed %d", seed).isEqualTo(REQUESTS);
        assertThat(report.findings()).as("answers that were not a 4xx JSON error, seed %d", seed).isEmpty();
        assertThat(report.badAnswers()).isZero();
        assertThat(report.aliveAndReady()).as("the child is alive and ready after the fuzz, seed %d", seed).isTrue();
        assertThat(report.outOfMemory()).as("OutOfMemoryError in the child's log, seed %d", seed).isFalse();
    }
}
