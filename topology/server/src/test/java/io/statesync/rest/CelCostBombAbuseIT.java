package io.statesync.rest;

import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.statesync.avro.KindPolicy;
import io.statesync.avro.ValidationRule;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A validation rule that concatenates a large string with itself 200 times: refused by its estimated cost at
 * PUT /api/v1/kinds, and, written straight to the kinds topic past the REST API, stopped at evaluation by the sizes it
 * builds, so the write is refused at once and every partition keeps admitting, also after a restart.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class CelCostBombAbuseIT {

    private static final String BOMB = "size(" + String.join(" + ", Collections.nCopies(200, "self.s")) + ") > 0";

    private static RestTestApp app;
    private static Map<String, Object> config;

    @BeforeAll
    static void start() throws Exception {
        String prefix = RestTestApp.prefix("cel-bomb");
        config = RestTestApp.config("cel-bomb", prefix);
        config.put(ServerConfig.HTTP_MAX_BODY_BYTES, 600_000);
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
        // The first writes after a start open producers and transactions; the attacks are measured after them.
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() {
        RestTestApp.closeAll(app);
    }

    @Test
    void shouldRefuseTheConcatenationBombAtPutKindsNamingTheRuleAndItsEstimate() {
        HttpResponse<String> r = app.put("/api/v1/kinds/BombKind", Map.of("validationRules", List.of(Map.of("rule", BOMB))));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).path("message").asText()).contains("validation rule 1 (size(self.s + self.s")
            .contains("has an estimated cost of").contains("more than 10000000");
        assertThat(app.get("/api/v1/kinds/BombKind").statusCode()).isEqualTo(404);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    @Test
    void shouldRefuseMoreRulesThanTheCapAndARuleLongerThanItsBound() {
        HttpResponse<String> many = app.put("/api/v1/kinds/ManyRules", Map.of("validationRules",
            Collections.nCopies(65, Map.of("rule", "true"))));
        HttpResponse<String> longRule = app.put("/api/v1/kinds/LongRule", Map.of("validationRules",
            List.of(Map.of("rule", "self.s == '" + "x".repeat(5_000) + "'"))));

        assertThat(many.statusCode()).as(many.body()).isEqualTo(400);
        assertThat(json(many).path("message").asText()).contains("65 health and validation rules; at most 64");
        assertThat(longRule.statusCode()).as(longRule.body()).isEqualTo(400);
        assertThat(json(longRule).path("message").asText()).contains("validation rule 1 is 5012 bytes long; at most 5000");
    }

    @Test
    void shouldStopABombWrittenPastTheApiAtEvaluationAndKeepEveryPartitionAdmitting() throws Exception {
        writeStraightToTheKindsTopic("SlipKind", BOMB);
        await().atMost(Duration.ofSeconds(10)).until(() -> app.get("/api/v1/kinds/SlipKind").statusCode() == 200);

        long start = System.nanoTime();
        HttpResponse<String> r = app.put("/api/v1/resources/SlipKind/default/bomb",
            Map.of("spec", Map.of("s", "x".repeat(400_000))));
        long ms = (System.nanoTime() - start) / 1_000_000;

        System.out.printf("cel bomb past the API: answered %d in %d ms%n", r.statusCode(), ms);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        assertThat(r.body()).contains("cost limit exceeded");
        assertThat(ms).as("the write is refused at once, not after gigabytes of copies").isLessThan(5_000);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));

        app.close();
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
        assertThat(app.put("/api/v1/resources/SlipKind/default/bomb", Map.of("spec", Map.of("s", "x".repeat(400_000))))
            .statusCode()).isEqualTo(422);
    }

    private static void writeStraightToTheKindsTopic(String kind, String rule) throws Exception {
        TopologySerdes serdes = new TopologySerdes(new AppConfig(config));
        Map<String, Object> p = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedClusterExtension.bootstrapServers(),
            ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_048_576);
        try (KafkaProducer<String, KindPolicy> producer = new KafkaProducer<>(p, new StringSerializer(),
            serdes.kindPolicy().serializer())) {
            producer.send(new ProducerRecord<>(new TopicNames(app.prefix).kinds(), kind, KindPolicy.newBuilder().setKind(kind)
                .setValidationRules(List.of(new ValidationRule(rule, "", ""))).build())).get();
        }
    }
}
