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
 * The seed is fixed ({@link #DEFAULT_SEED}), so that a CI failure replays; {@code -Drest.fuzz.seed=N} runs another
 * seed and {@code -Drest.fuzz.seed=random} a new one each time. Every assertion names the seed.
 * {@code SoakMain --scenario rest-fuzz --requests N} runs a longer one.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestFuzzIT {

    static final String SEED_PROPERTY = "rest.fuzz.seed";
    static final long DEFAULT_SEED = 20_261_122L;
    private static final int REQUESTS = 5_000;
    /** Several times the child's heap: a server that buffered a chunked body whole would run out of memory. */
    private static final long HUGE_CHUNKED_BYTES = 128L * 1_048_576;

    @TempDir
    Path workDir;

    @Test
    void shouldAnswerEveryBadRequestWithA4xxJsonErrorAndStayHealthyOnASmallHeap(EmbeddedCluster cluster) throws Exception {
        long seed = seed(System.getProperty(SEED_PROPERTY));
        System.out.println("REST fuzz seed " + seed + " (-D" + SEED_PROPERTY + "=" + seed + " replays it)");
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(),
            workDir.resolve("state"), Map.of());

        RestFuzzScenario.Report report;
        try {
            report = new RestFuzzScenario(config, workDir).run(REQUESTS, seed, 4, HUGE_CHUNKED_BYTES, Duration.ofSeconds(90));
        } catch (Exception e) {
            throw new AssertionError("the REST fuzz did not complete, seed " + seed, e);
        }
        System.out.println(report);

        assertThat(report.requests()).as("seed %d", seed).isEqualTo(REQUESTS);
        assertThat(report.categories()).as("a share of the requests went to the Kubernetes API, seed %d", seed)
            .containsKeys("kube-bad-body", "kube-bad-request", "kube-bad-auth");
        assertThat(report.findings()).as("answers that were not a 4xx JSON error, seed %d", seed).isEmpty();
        assertThat(report.badAnswers()).as("bad answers, seed %d", seed).isZero();
        assertThat(report.aliveAndReady()).as("the child is alive and ready after the fuzz, seed %d", seed).isTrue();
        assertThat(report.outOfMemory()).as("OutOfMemoryError in the child's log, seed %d", seed).isFalse();
    }

    /** The default seed when unset or empty, a fresh one for {@code random}, else the number. */
    static long seed(String property) {
        if (property == null || property.isBlank()) {
            return DEFAULT_SEED;
        }
        if (property.equalsIgnoreCase("random")) {
            return new java.security.SecureRandom().nextLong() & Long.MAX_VALUE;
        }
        try {
            return Long.parseLong(property.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + SEED_PROPERTY + " must be a number or 'random', not '" + property + "'", e);
        }
    }
}
