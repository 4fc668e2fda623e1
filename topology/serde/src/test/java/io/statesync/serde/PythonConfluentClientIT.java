package io.statesync.serde;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.schemas.Values;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cross-checks the wire format with Confluent's own Python client (confluent_kafka.avro) through the real broker
 * and registry: each side decodes what the other produced.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class PythonConfluentClientIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void requirePython() throws IOException, InterruptedException {
        PythonClient.assumeAvailable();
    }

    @Test
    void shouldLetConfluentsPythonClientDecodeWhatJavaProduces(EmbeddedCluster cluster) throws Exception {
        String topic = "it-java-to-python-" + UUID.randomUUID();
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, config(cluster), false);
        List<Resource> sent = List.of(resource("shop", 0), resource("café-☕", 1), resource("big", 2));
        try (var producer = new KafkaProducer<>(producerProps(cluster), new StringSerializer(), serde.serializer())) {
            for (Resource r : sent) {
                producer.send(new ProducerRecord<>(topic, key(r), r)).get();
            }
            producer.send(new ProducerRecord<>(topic, "WebApp/default/gone", null)).get();
        }

        List<JsonNode> read = new PythonClient(cluster.bootstrapServers(), cluster.registryUrl()).consume(topic, 4);

        assertThat(read).hasSize(4);
        int id = WireFormat.schemaId(serde.serializer().serialize(topic, sent.get(0))).getAsInt();
        for (int i = 0; i < sent.size(); i++) {
            JsonNode record = read.get(i);
            Resource expected = sent.get(i);
            assertThat(record.get("key").asText()).isEqualTo(key(expected));
            assertThat(record.get("schema_id").asInt()).isEqualTo(id);
            JsonNode value = record.get("value");
            assertThat(value.at("/metadata/name").asText()).isEqualTo(expected.getMetadata().getName());
            assertThat(value.at("/metadata/creationTimestamp").asLong())
                .isEqualTo(expected.getMetadata().getCreationTimestamp().toEpochMilli());
            assertThat(value.at("/status/syncStatus").asText()).isEqualTo(expected.getStatus().getSyncStatus().name());
            assertThat(Values.fromJson(value.get("spec"))).isEqualTo(expected.getSpec());
        }
        assertThat(read.get(3).get("value").isNull()).isTrue();
    }

    @Test
    void shouldDecodeWithJavaWhatConfluentsPythonClientProduces(EmbeddedCluster cluster) throws Exception {
        String topic = "it-python-to-java-" + UUID.randomUUID();
        Serde<DesiredState> serde = AvroSerdes.specific(DesiredState.class, config(cluster), false);
        // The Python helper writes with the subject's latest schema, as it would against a running statesync.
        serde.serializer().serialize(topic, SerdeFixtures.desired());
        Map<String, Object> spec = new LinkedHashMap<>(SerdeFixtures.webAppSpec());
        spec.put("huge", 1L << 62);
        spec.put("name", "ünïcödé 😀");
        List<JsonNode> lines = List.of(line("WebApp/default/shop", spec), line("WebApp/default/empty", Map.of()),
            JSON.createObjectNode().put("key", "WebApp/default/gone").putNull("value"));

        new PythonClient(cluster.bootstrapServers(), cluster.registryUrl()).produce(topic, lines);

        List<ConsumerRecord<String, DesiredState>> read = consume(cluster, topic, serde, 3);
        assertThat(read).extracting(ConsumerRecord::key)
            .containsExactly("WebApp/default/shop", "WebApp/default/empty", "WebApp/default/gone");
        DesiredState shop = read.get(0).value();
        assertThat(shop.getName()).isEqualTo("shop");
        assertThat(shop.getApiVersion()).isEqualTo("statesync.io/v1");
        assertThat(shop.getExpectedResourceVersion()).isEqualTo("7");
        assertThat(Values.toJava(shop.getSpec())).isEqualTo(Values.toJava(Values.fromJava(spec)));
        assertThat(Values.toJava(read.get(1).value().getSpec())).isEqualTo(Map.of());
        assertThat(read.get(2).value()).isNull();
    }

    private static JsonNode line(String key, Map<String, Object> spec) {
        String[] parts = key.split("/");
        ObjectNode value = JSON.createObjectNode().put("kind", parts[0]).put("namespace", parts[1]).put("name", parts[2])
            .put("expectedResourceVersion", "7");
        value.set("spec", JSON.valueToTree(spec));
        ObjectNode line = JSON.createObjectNode().put("key", key);
        line.set("value", value);
        return line;
    }

    private static Resource resource(String name, int variant) {
        Resource r = SerdeFixtures.resource();
        r.getMetadata().setName(name);
        Map<String, Object> spec = new LinkedHashMap<>(SerdeFixtures.webAppSpec());
        spec.put("variant", variant);
        spec.put("limit", variant == 2 ? Long.MAX_VALUE : 1.5e300);
        r.setSpec(Values.fromJava(spec));
        return r;
    }

    private static String key(Resource r) {
        return r.getMetadata().getKind() + "/" + r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    }

    static Map<String, Object> config(EmbeddedCluster cluster) {
        return Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl());
    }

    static Properties producerProps(EmbeddedCluster cluster) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return p;
    }

    static <T> List<ConsumerRecord<String, T>> consume(EmbeddedCluster cluster, String topic, Serde<T> serde, int count) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<String, T>> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(p, new StringDeserializer(), serde.deserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (out.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(out::add);
            }
        }
        return out;
    }
}
