package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.gc.OwnerKeyPartitioner;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A record on the kinds topic that is not a kind policy, produced with a plain producer: listings and the Kubernetes
 * API keep answering (the bad policy is left out), writes of that kind are refused retryably rather than admitted
 * without their rules, a good policy replaces it, and every partition keeps admitting, also after a restart.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KindPoisonAbuseIT {

    private static final int PARTITIONS = 3;
    private static KubeTestApp app;

    @BeforeAll
    static void start() throws Exception {
        app = KubeTestApp.start(KubeTestApp.config("kind-poison"));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void shouldKeepListingsDiscoveryAndEveryPartitionAnsweringAfterAPoisonKindRecord() throws Exception {
        app.putKind("Healthy", Map.of("maxAttempts", 3));
        app.putKind("Poisoned", Map.of("validationRules", List.of(Map.of("rule", "self.replicas <= 10"))));
        produceRaw("Poisoned", new byte[] {0, 0x7f, (byte) 0xf0, 0, 42, (byte) 0xff, (byte) 0xfe, 7});
        produceRaw("Garbage", "not avro at all".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(10)).until(() -> app.send("GET", "/api/v1/kinds/Poisoned", null, null).statusCode() == 503);

        assertStillServing();
        assertKindRefusedRetryably();
        assertEveryPartitionAdmits();

        app.restart();
        assertStillServing();
        assertKindRefusedRetryably();
        assertEveryPartitionAdmits();

        app.putKind("Poisoned", Map.of("validationRules", List.of(Map.of("rule", "self.replicas <= 10"))));
        HttpResponse<String> broken = app.send("PUT", "/api/v1/resources/Poisoned/default/p1",
            Map.of("spec", Map.of("replicas", 30)), "application/json");
        assertThat(broken.statusCode()).as("the replaced policy's rules apply: %s", broken.body()).isEqualTo(422);
    }

    private static void assertStillServing() {
        HttpResponse<String> kinds = app.send("GET", "/api/v1/kinds", null, null);
        assertThat(kinds.statusCode()).as(kinds.body()).isEqualTo(200);
        JsonNode list = KubeTestApp.json(kinds);
        assertThat(list.path("items").findValuesAsText("kind")).contains("Healthy").doesNotContain("Poisoned", "Garbage");
        assertThat(list.path("undecodable").findValuesAsText("kind")).contains("Poisoned", "Garbage");
        for (String path : new String[] {"/api", "/apis", "/apis/statesync.io", "/apis/statesync.io/v1", "/openapi/v2",
            "/apis/statesync.io/v1/healthys"}) {
            HttpResponse<String> r = app.send("GET", path, null, null);
            assertThat(r.statusCode()).as("%s: %s", path, r.body()).isEqualTo(200);
        }
        assertThat(app.send("GET", "/apis/statesync.io/v1", null, null).body()).contains("healthys");
    }

    private static void assertKindRefusedRetryably() {
        HttpResponse<String> r = app.send("PUT", "/api/v1/resources/Poisoned/default/p1",
            Map.of("spec", Map.of("replicas", 30)), "application/json");
        assertThat(r.statusCode()).as("never admitted without its rules: %s", r.body()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).isPresent();
        assertThat(r.body()).contains("does not decode");
    }

    private static void assertEveryPartitionAdmits() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (int p = 0; p < PARTITIONS; p++) {
            String name = nameOnPartition("probe-" + run, p);
            long start = System.nanoTime();
            HttpResponse<String> r = app.send("PUT", "/api/v1/resources/Probe/default/" + name,
                Map.of("spec", Map.of("partition", p)), "application/json");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(r.statusCode()).as("partition %d (%d ms): %s", p, ms, r.body()).isBetween(200, 201);
            assertThat(ms).as("partition %d admits within 5 s", p).isLessThanOrEqualTo(5_000);
        }
    }

    private static String nameOnPartition(String base, int partition) {
        for (int i = 0; ; i++) {
            if (OwnerKeyPartitioner.partition("Probe/default/" + base + "-" + i, PARTITIONS) == partition) {
                return base + "-" + i;
            }
        }
    }

    private static void produceRaw(String key, byte[] value) throws Exception {
        Map<String, Object> p = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(app.config.get(AppConfig.TOPIC_PREFIX) + "kinds", key, value)).get();
        }
    }
}
