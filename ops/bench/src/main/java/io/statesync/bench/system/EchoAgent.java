package io.statesync.bench.system;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A zero-latency agent: every correction is applied at once and reported back as an observation equal to the
 * correction's desired spec, at its generation, acknowledging its command id. It isolates statesync's own
 * round trip from any actuator, which is what the convergence suite measures.
 */
final class EchoAgent implements Runnable, AutoCloseable {

    private final AppConfig config;
    private final TopicNames topics;
    private final TopologySerdes serdes;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread = new Thread(this, "echo-agent");

    EchoAgent(AppConfig config) {
        this.config = config;
        this.topics = new TopicNames(config.topicPrefix());
        this.serdes = new TopologySerdes(config);
    }

    EchoAgent start() {
        thread.start();
        return this;
    }

    @Override
    public void run() {
        Deserializer<Correction> in = serdes.correction().deserializer();
        Serializer<ObservedState> out = serdes.observed().serializer();
        try (KafkaConsumer<String, byte[]> consumer = consumer(); KafkaProducer<String, byte[]> producer = producer()) {
            consumer.subscribe(List.of(topics.corrections()));
            while (!stop.get()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                    Correction c = in.deserialize(r.topic(), r.value());
                    if (c.getAction() != Action.DELETE) {
                        producer.send(new ProducerRecord<>(topics.observed(), r.key(), out.serialize(topics.observed(), observation(c))));
                    }
                }
            }
        }
    }

    private static ObservedState observation(Correction c) {
        return ObservedState.newBuilder().setKind(c.getKind()).setNamespace(c.getNamespace()).setName(c.getName())
            .setUid(c.getUid()).setObservedGeneration(c.getGeneration()).setState(c.getDesiredSpec())
            .setObservedAt(Instant.now()).setReporter("bench-echo-agent").setAckCommandId(c.getCommandId()).build();
    }

    private KafkaConsumer<String, byte[]> consumer() {
        return new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
            ConsumerConfig.GROUP_ID_CONFIG, config.getString(AppConfig.APPLICATION_ID) + "-echo-agent",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000),
            new StringDeserializer(), new ByteArrayDeserializer());
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
            ProducerConfig.LINGER_MS_CONFIG, 5,
            ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
            ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"),
            new StringSerializer(), new ByteArraySerializer());
    }

    private String bootstrap() {
        return String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS));
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join(10_000);
    }
}
