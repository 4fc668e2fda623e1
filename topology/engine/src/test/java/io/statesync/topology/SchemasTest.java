package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.reconciler.KindDefinition;
import io.statesync.reconciler.schema.StructuralSchema;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

class SchemasTest {

    /** v1beta1 takes any size; v1, the storage version, only small or large and defaults the color. */
    private static final KindDefinition WIDGETS = new KindDefinition(Map.of("group", "example.com",
        "versions", List.of(
            version("v1beta1", false, Map.of("size", Map.of("type", "string"))),
            version("v1", true, Map.of("size", Map.of("type", "string", "enum", List.of("small", "large")),
                "color", Map.of("type", "string", "default", "blue"))))),
        StructuralSchema.Limits.DEFAULTS);

    private static Map<String, Object> version(String name, boolean storage, Map<String, Object> specProperties) {
        return Map.of("name", name, "served", true, "storage", storage, "schema", Map.of("openAPIV3Schema",
            Map.of("type", "object", "properties", Map.of("spec", Map.of("type", "object", "properties", specProperties)))));
    }

    private static DesiredState widget(String size) {
        return DesiredState.newBuilder().setKind("Widget.example.com").setNamespace("ns").setName("w")
            .setSpec(Values.fromJava(Map.of("size", size))).build();
    }

    @Test
    void shouldHoldAWriteToTheSchemaOfTheVersionItWasWrittenIn() {
        Schemas.Outcome beta = Schemas.admit(WIDGETS, "example.com/v1beta1", widget("huge"), null);
        Schemas.Outcome ga = Schemas.admit(WIDGETS, "example.com/v1", widget("huge"), null);

        assertThat(beta.refused()).isNull();
        assertThat(Values.toJava(beta.effective().getSpec())).isEqualTo(Map.of("size", "huge"));
        assertThat(ga.refused()).isNotNull();
        assertThat(ga.refused().causes()).extracting(c -> c.getField()).containsExactly("spec.size");
    }

    @Test
    void shouldHoldAWriteThatNamesNoVersionOfTheDefinitionToTheStorageVersion() {
        Schemas.Outcome topic = Schemas.admit(WIDGETS, "statesync.io/v1", widget("small"), null);
        Schemas.Outcome unknown = Schemas.admit(WIDGETS, "example.com/v9", widget("huge"), null);

        assertThat(Values.toJava(topic.effective().getSpec())).isEqualTo(Map.of("size", "small", "color", "blue"));
        assertThat(unknown.refused()).isNotNull();
    }
}
