package io.statesync.serde;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import io.statesync.avro.Resource;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The serdes in real Kafka clients, against the embedded broker and Apicurio. */
@ExtendWith(EmbeddedClusterExtension.class)
class AvroSerdeKafkaIT {

    @Test
    void shouldCarryResourcesThroughKafkaAndTheRegistry(EmbeddedCluster cluster) {
        String topic = "it-serde-" + UUID.randomUUID();
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, PythonConfluentClientIT.config(cluster), false);
        try (var producer = new KafkaProducer<>(PythonConfluentClientIT.producerProps(cluster), new StringSerializer(),
            serde.serializer())) {
            producer.send(new ProducerRecord<>(topic, "WebApp/default/shop", SerdeFixtures.resource()));
            producer.send(new ProducerRecord<>(topic, "WebApp/default/shop", null));
        }

        var read = PythonConfluentClientIT.consume(cluster, topic,
            AvroSerdes.specific(Resource.class, PythonConfluentClientIT.config(cluster), false), 2);

        assertThat(read).hasSize(2);
        assertThat(read.get(0).value()).isEqualTo(SerdeFixtures.resource());
        assertThat(read.get(1).value()).isNull();
    }

    @Test
    void shouldSurfaceABadRecordAsASerdeExceptionNamingTheTopic(EmbeddedCluster cluster) throws Exception {
        String topic = "it-serde-bad-" + UUID.randomUUID();
        try (var producer = new KafkaProducer<>(PythonConfluentClientIT.producerProps(cluster), new StringSerializer(),
            new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, "WebApp/default/shop", "{\"not\":\"avro\"}".getBytes())).get();
        }
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, PythonConfluentClientIT.config(cluster), false);

        try (var consumer = new KafkaConsumer<>(p, new StringDeserializer(), serde.deserializer())) {
            consumer.subscribe(List.of(topic));
            assertThatThrownBy(() -> {
                for (int i = 0; i < 60; i++) {
                    consumer.poll(Duration.ofMillis(500));
                }
            }).isInstanceOfSatisfying(RecordDeserializationException.class, e -> {
                assertThat(e.getCause()).isInstanceOfSatisfying(SerdeException.class, cause -> {
                    assertThat(cause.reason()).isEqualTo(SerdeException.Reason.WRONG_MAGIC_BYTE);
                    assertThat(cause.topic()).isEqualTo(topic);
                });
                assertThat(e.offset()).isZero();
            });
        }
    }
}
