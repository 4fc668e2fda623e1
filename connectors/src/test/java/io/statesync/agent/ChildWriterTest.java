package io.statesync.agent;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.PatchType;
import io.statesync.avro.Reason;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.schemas.Values;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChildWriterTest {

    private final MockProducer<String, DesiredState> producer = new MockProducer<>(true, null, new StringSerializer(),
        (Serializer<DesiredState>) (topic, d) -> new byte[0]);
    private final ChildWriter writer = new ChildWriter(producer, "statesync.desired");

    private static Correction parent(Map<String, ?> spec) {
        return new Correction("c-1", "WebApp", "default", "shop", "uid-shop", Action.CREATE, Reason.SpecChanged, 1L, 1,
            List.of(), Values.fromJava(spec), Instant.EPOCH, Instant.EPOCH);
    }

    @Test
    void shouldWriteEachChildWithTheParentAsBlockingControllerUnderADeterministicName() throws Exception {
        List<String> keys = writer.render(parent(Map.of()), List.of(
            new ChildWriter.Child("Deployment", "deployment", Map.of("replicas", 2L)),
            new ChildWriter.Child("Service", "service", Map.of("port", 80L))));

        assertThat(keys).containsExactly("Deployment/default/shop-deployment", "Service/default/shop-service");
        List<ProducerRecord<String, DesiredState>> sent = producer.history();
        assertThat(sent).extracting(ProducerRecord::key).containsExactlyElementsOf(keys);
        DesiredState d = sent.get(0).value();
        assertThat(d.getName()).isEqualTo("shop-deployment");
        assertThat(d.getPatch().getType()).isEqualTo(PatchType.Apply);
        assertThat(d.getFieldManager()).isEqualTo(ChildWriter.DEFAULT_FIELD_MANAGER);
        JsonNode config = new ObjectMapper().readTree(d.getPatch().getDocument());
        assertThat(config.path("spec").path("replicas").asLong()).isEqualTo(2L);
        assertThat(config.path("metadata").path("ownerReferences")).singleElement().satisfies(r -> {
            assertThat(r.path("kind").asText()).isEqualTo("WebApp");
            assertThat(r.path("name").asText()).isEqualTo("shop");
            assertThat(r.path("uid").asText()).isEqualTo("uid-shop");
            assertThat(r.path("controller").asBoolean()).isTrue();
            assertThat(r.path("blockOwnerDeletion").asBoolean()).isTrue();
        });
    }

    @Test
    void shouldWriteOnlyChangedChildrenAndDeleteTheOnesNoLongerRendered() throws Exception {
        writer.render(parent(Map.of()), List.of(new ChildWriter.Child("Deployment", "deployment", Map.of("replicas", 2L)),
            new ChildWriter.Child("Service", "service", Map.of("port", 80L))));
        producer.clear();

        writer.render(parent(Map.of()), List.of(new ChildWriter.Child("Deployment", "deployment", Map.of("replicas", 5L))));

        assertThat(producer.history()).extracting(ProducerRecord::key)
            .containsExactlyInAnyOrder("Deployment/default/shop-deployment", "Service/default/shop-service");
        assertThat(producer.history()).filteredOn(r -> r.key().startsWith("Service/")).singleElement()
            .satisfies(r -> assertThat(r.value()).isNull());
    }

    @Test
    void shouldWriteNothingWhenTheRenderingDidNotChange() throws Exception {
        List<ChildWriter.Child> children = List.of(new ChildWriter.Child("Deployment", "deployment", Map.of("replicas", 2L)));
        writer.render(parent(Map.of()), children);
        producer.clear();

        writer.render(parent(Map.of()), children);

        assertThat(producer.history()).isEmpty();
    }
}
