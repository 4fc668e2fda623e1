package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopicNames;
import io.statesync.topology.internal.DlqProcessingExceptionHandler;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A task that fails on the same input over and over under exactly-once: the operator lowered the Resources topic's
 * {@code max.message.bytes} below what one write produces, so the broker refuses that write's Resource, the stream
 * thread's transaction cannot commit, and the task replays the write from its last commit. Once that repeated for good
 * (writes to the partition timed out, also after a restart). Now {@code /readyz} names the failing task, the write is
 * quarantined to the DLQ after {@code quarantine.max.attempts} failures with its reason, counted on /metrics, and every
 * partition admits again, also after a restart on the same state.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class WedgedTaskAbuseIT {

    private static final int TOPIC_LIMIT = 10_000;

    /** About 24 KB of incompressible text: a Resource of it is over {@link #TOPIC_LIMIT}. */
    private static Map<String, Object> largeSpec() {
        StringBuilder s = new StringBuilder();
        while (s.length() < 24_000) {
            s.append(UUID.randomUUID());
        }
        return Map.of("blob", s.toString());
    }

    @Test
    void shouldShowTheFailingTaskOnReadyzThenQuarantineItsInputAndAdmitOnEveryPartitionAcrossARestart() throws Exception {
        String prefix = RestTestApp.prefix("wedged-task");
        Map<String, Object> config = RestTestApp.config("wedged-task", prefix);
        // Each failure ends the stream thread, and its replacement's rebalance waits for the dead thread's member to
        // expire: the broker's shortest session keeps that wait to seconds.
        config.put("streams.session.timeout.ms", 6_000);
        config.put("streams.heartbeat.interval.ms", 1_500);
        TopicNames topics = new TopicNames(prefix);
        RestTestApp app = RestTestApp.start(config).as(RestTestApp.WRITER);
        String name = RestTestApp.nameOnPartition("wedge", 1, 3);
        try {
            assertThat(app.put("/api/v1/resources/Probe/default/" + name, Map.of("spec", Map.of("a", 1))).statusCode()).isEqualTo(201);
            lowerMaxMessageBytes(topics.resources());
            long start = System.nanoTime();
            CompletableFuture<HttpResponse<String>> write = CompletableFuture.supplyAsync(
                () -> app.put("/api/v1/resources/Probe/default/" + name, Map.of("spec", largeSpec())));
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                HttpResponse<String> ready = app.get("/readyz");
                assertThat(ready.statusCode()).as(ready.body()).isEqualTo(503);
                assertThat(ready.body()).contains("stream tasks failed").contains("task ").contains("_1");
            });
            System.out.printf("/readyz 503 naming the task after %d ms%n", (System.nanoTime() - start) / 1_000_000);
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(quarantined(topics)).isNotEmpty());
            System.out.printf("quarantined after %d ms%n", (System.nanoTime() - start) / 1_000_000);
            ConsumerRecord<byte[], byte[]> letter = quarantined(topics).get(0);
            assertThat(DeadLetterRecords.header(letter, StatesyncHeaders.DLQ_ERROR_CLASS)).isEqualTo(RecordTooLargeException.class.getName());
            assertThat(DeadLetterRecords.header(letter, StatesyncHeaders.DLQ_ERROR_MESSAGE)).contains("3 times");
            assertThat(DeadLetterRecords.header(letter, StatesyncHeaders.DLQ_SOURCE_TOPIC)).isEqualTo(topics.desired());
            assertThat(write.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(504);
            assertThat(app.get("/metrics").body())
                .containsPattern("statesync_quarantined_total\\{[^}]*source=\"desired\"[^}]*} [1-9]");
            app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
        } finally {
            app.close();
        }
        RestTestApp.assertEveryPartitionAdmitsAfterARestart(config);
        assertThat(quarantined(topics)).hasSize(1);
    }

    private static List<ConsumerRecord<byte[], byte[]>> quarantined(TopicNames topics) {
        return DeadLetterRecords.read(topics.dlq()).stream().filter(r -> DlqProcessingExceptionHandler.QUARANTINED.equals(
            DeadLetterRecords.header(r, StatesyncHeaders.DLQ_ERROR_REASON))).toList();
    }

    private static void lowerMaxMessageBytes(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers()))) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(new AlterConfigOp(
                new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(TOPIC_LIMIT)), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        }
    }
}
