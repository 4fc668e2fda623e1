package io.statesync.bench.system;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.ObservedState;
import io.statesync.config.AppConfig;
import io.statesync.schemas.Values;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The inputs of the throughput suite: {@code records} desired writes and as many observations over {@code keys}
 * keys. Write {@code i} of a key carries spec revision {@code i / keys}, so every desired write is a real change
 * (a new generation), not an idempotent re-send; every tenth observation differs from its desired spec.
 */
public final class Workload {

    private Workload() {
    }

    public static String key(int k) {
        return "WebApp/bench/app-" + k;
    }

    public static Map<String, Object> spec(long revision, long replicas) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("image", "nginx:1." + revision);
        spec.put("replicas", replicas);
        spec.put("port", 8080L);
        spec.put("env", Map.of("ENV", "production", "LOG_LEVEL", "info"));
        spec.put("containers", List.of(Map.of("name", "web", "memory", "256Mi")));
        return spec;
    }

    public static DesiredState desired(int k, Map<String, Object> spec) {
        return DesiredState.newBuilder().setKind("WebApp").setNamespace("bench").setName("app-" + k)
            .setSpec(Values.fromJava(spec)).build();
    }

    public static ObservedState observed(int k, long generation, Map<String, Object> state, String commandId) {
        return ObservedState.newBuilder().setKind("WebApp").setNamespace("bench").setName("app-" + k)
            .setObservedGeneration(generation).setState(Values.fromJava(state))
            .setObservedAt(Instant.now()).setReporter("bench").setAckCommandId(commandId).build();
    }

    /**
     * Pairs of records per millisecond of event time. A live agent reports an observation as it makes it, so none is
     * past the kind's staleness bound when statesync reads it: the pairs are packed closely enough that the oldest
     * observation stays well within the default bound while every contender of a run reads them.
     */
    static final int PAIRS_PER_MS = 20;

    /** Pre-produces both inputs, interleaved by timestamp so that Streams sees desired i before observation i. */
    public static void produce(AppConfig config, int records, int keys) {
        TopicNames topics = new TopicNames(config.topicPrefix());
        TopologySerdes serdes = new TopologySerdes(config);
        Serializer<DesiredState> ds = serdes.desired().serializer();
        Serializer<ObservedState> os = serdes.observed().serializer();
        // Timestamps end at the wall clock, with the observations' observedAt one millisecond after their desired write.
        long base = System.currentTimeMillis() - records / PAIRS_PER_MS - 1;
        try (KafkaProducer<String, byte[]> producer = fastProducer(config)) {
            for (int i = 0; i < records; i++) {
                int k = i % keys;
                long rev = i / keys;
                long t = base + i / PAIRS_PER_MS;
                producer.send(new ProducerRecord<>(topics.desired(), null, t, key(k),
                    ds.serialize(topics.desired(), desired(k, spec(rev, 3)))));
                ObservedState obs = observed(k, rev + 1, spec(rev, i % 10 == 0 ? 4 : 3), null);
                obs.setObservedAt(Instant.ofEpochMilli(t + 1));
                producer.send(new ProducerRecord<>(topics.observed(), null, t + 1, key(k),
                    os.serialize(topics.observed(), obs)));
            }
            producer.flush();
        }
    }

    /** Throughput over latency: large lz4 batches, so that producing never limits what is measured after it. */
    public static KafkaProducer<String, byte[]> fastProducer(AppConfig config) {
        return new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)),
            ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024,
            ProducerConfig.LINGER_MS_CONFIG, 20,
            ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4",
            ProducerConfig.BUFFER_MEMORY_CONFIG, 256L * 1024 * 1024,
            ProducerConfig.ACKS_CONFIG, "1",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false),
            new StringSerializer(), new ByteArraySerializer());
    }

    /** Latency over batching: a write waits at most 1 ms for its batch. */
    public static KafkaProducer<String, byte[]> latencyProducer(AppConfig config) {
        return new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)),
            ProducerConfig.LINGER_MS_CONFIG, 1,
            ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024),
            new StringSerializer(), new ByteArraySerializer());
    }

    /** {@code n} new resources, one desired write each, spec revision 0. */
    public static void writeResources(AppConfig config, int n) {
        TopicNames topics = new TopicNames(config.topicPrefix());
        Serializer<DesiredState> ser = new TopologySerdes(config).desired().serializer();
        try (KafkaProducer<String, byte[]> producer = fastProducer(config)) {
            for (int k = 0; k < n; k++) {
                producer.send(new ProducerRecord<>(topics.desired(), key(k), ser.serialize(topics.desired(), desired(k, spec(0, 3)))));
            }
        }
    }
}
