package io.statesync.topology;

import java.util.Map;
import java.util.UUID;

import io.statesync.avro.DesiredState;
import io.statesync.registry.MockSchemaRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TopicSchemasTest {

    private final TopicNames topics = new TopicNames("statesync.");

    @Test
    void shouldNameEveryAvroTopicsValueSubject() {
        assertThat(TopicSchemas.valueSubjects(topics)).containsOnlyKeys("statesync.desired-value", "statesync.observed-value",
            "statesync.corrections-value", "statesync.resources-value", "statesync.events-value", "statesync.kinds-value");
        assertThat(TopicSchemas.valueSubjects(topics).get("statesync.desired-value")).isEqualTo(DesiredState.getClassSchema());
    }

    @Test
    void shouldGiveTheSameIdsWhenASecondInstanceRegistersAgain() {
        String scope = "topic-schemas-" + UUID.randomUUID();
        try {
            Map<String, Integer> first = TopicSchemas.register(MockSchemaRegistry.forScope(scope), topics);
            Map<String, Integer> second = TopicSchemas.register(MockSchemaRegistry.forScope(scope), topics);
            assertThat(second).isEqualTo(first).hasSize(6);
            assertThat(MockSchemaRegistry.forScope(scope).lookup("statesync.desired-value", DesiredState.getClassSchema()))
                .isPresent();
        } finally {
            MockSchemaRegistry.dropScope(scope);
        }
    }
}
