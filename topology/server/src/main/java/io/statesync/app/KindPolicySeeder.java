package io.statesync.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.statesync.avro.KindPolicy;
import io.statesync.config.AppConfig;
import io.statesync.rest.KindPolicyJson;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the kind policies of the optional YAML seed file to the kinds topic, only for kinds the topic
 * does not hold yet: a restart must never undo a policy edited through REST or the CLI.
 */
public final class KindPolicySeeder {

    private static final Logger LOG = LoggerFactory.getLogger(KindPolicySeeder.class);

    private final AppConfig config;
    private final TopicNames topics;

    public KindPolicySeeder(AppConfig config, TopicNames topics) {
        this.config = config;
        this.topics = topics;
    }

    public void seedIfConfigured() {
        String file = config.getString(ServerConfig.KINDS_SEED_FILE);
        if (file.isEmpty()) {
            return;
        }
        List<KindPolicy> seeds = parse(Path.of(file));
        Set<String> existing = existingKinds();
        TopologySerdes serdes = new TopologySerdes(config);
        try (var producer = new KafkaProducer<>(producerProps(), new StringSerializer(), serdes.kindPolicy().serializer())) {
            for (KindPolicy p : seeds) {
                if (!existing.contains(p.getKind())) {
                    producer.send(new ProducerRecord<>(topics.kinds(), p.getKind(), p)).get();
                    LOG.info("Seeded kind policy {}", p.getKind());
                }
            }
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("Cannot seed kind policies from " + file + ": " + e, e);
        }
    }

    /** A YAML (or JSON) file with a top-level list of policies, or a map kind → policy; field names as in the Avro schema. */
    public static List<KindPolicy> parse(Path file) {
        try {
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(file));
            List<KindPolicy> out = new ArrayList<>();
            if (root != null && root.isArray()) {
                root.forEach(n -> out.add(KindPolicyJson.fromJson(n, null)));
            } else if (root != null && root.isObject()) {
                root.fields().forEachRemaining(e -> out.add(KindPolicyJson.fromJson(e.getValue(), e.getKey())));
            }
            return out;
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read kind policy seed file " + file + ": " + e.getMessage(), e);
        }
    }

    private Set<String> existingKinds() {
        Map<String, Object> p = config.clientProps(AppConfig.CONSUMER_PREFIX);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Set<String> kinds = new HashSet<>();
        try (var consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topics.kinds()).stream()
                .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() == null) {
                        kinds.remove(r.key());
                    } else {
                        kinds.add(r.key());
                    }
                }
            }
        }
        return kinds;
    }

    private Map<String, Object> producerProps() {
        Map<String, Object> p = config.clientProps(AppConfig.PRODUCER_PREFIX);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return p;
    }
}
