package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopicNames;
import io.statesync.topology.WriteAdmission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes whose outputs would not fit the topics: once a single one stopped its partition for good (the producer
 * refused the record, the transaction aborted, and the same input failed again after every restart). Now admission
 * refuses such a write with 413 (its dry run too) and dead-letters it before anything is produced, and every partition keeps
 * admitting, also after a restart.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class OutputTooLargeAbuseIT {

    /** Under 20 KB, but its 600 fields each repeat a 5,000-character key in their paths: 3 MB per copy. */
    private static Map<String, Object> repeatedPaths() {
        Map<String, Object> fields = new HashMap<>();
        for (int i = 0; i < 600; i++) {
            fields.put("f" + i, i);
        }
        return Map.of("k".repeat(5_000), fields);
    }

    @Test
    void shouldRefuseAWriteWhoseOutputsCannotFitAndKeepEveryPartitionAdmittingAcrossARestart() throws Exception {
        String prefix = RestTestApp.prefix("output-too-large");
        Map<String, Object> config = RestTestApp.config("output-too-large", prefix);
        TopicNames topics = new TopicNames(prefix);
        RestTestApp app = RestTestApp.start(config).as(RestTestApp.WRITER);
        try {
            // A first write warms the path (the reply consumer, the owner's task), so the timing is the attack's.
            assertThat(app.put("/api/v1/resources/WebApp/default/warm", Map.of("spec", Map.of("a", 1))).statusCode()).isEqualTo(201);
            HttpResponse<String> dry = app.put("/api/v1/resources/WebApp/default/paths?dryRun=All", Map.of("spec", repeatedPaths()));
            assertThat(dry.statusCode()).as(dry.body()).isEqualTo(413);
            assertThat(json(dry).path("reason").asText()).isEqualTo(WriteAdmission.OUTPUT_TOO_LARGE);
            long start = System.nanoTime();
            HttpResponse<String> r = app.put("/api/v1/resources/WebApp/default/paths", Map.of("spec", repeatedPaths()));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
            assertThat(json(r).path("reason").asText()).isEqualTo(WriteAdmission.OUTPUT_TOO_LARGE);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(DeadLetterRecords.headers(topics.dlq(), StatesyncHeaders.DLQ_ERROR_REASON)).contains(WriteAdmission.OUTPUT_TOO_LARGE);
            app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
        } finally {
            app.close();
        }
        RestTestApp.assertEveryPartitionAdmitsAfterARestart(config);
    }
}
