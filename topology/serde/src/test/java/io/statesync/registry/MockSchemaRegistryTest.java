package io.statesync.registry;

import java.util.Map;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MockSchemaRegistryTest {

    static final Schema V1 = SchemaBuilder.record("Thing").namespace("t").fields()
        .requiredString("name").endRecord();
    static final Schema V2_WITH_DEFAULT = SchemaBuilder.record("Thing").namespace("t").fields()
        .requiredString("name").name("size").type().intType().intDefault(1).endRecord();
    static final Schema V2_BREAKING = SchemaBuilder.record("Thing").namespace("t").fields()
        .requiredString("name").requiredString("owner").endRecord();

    @AfterEach
    void forgetScopes() {
        MockSchemaRegistry.dropScope("mock-test-a");
        MockSchemaRegistry.dropScope("mock-test-b");
    }

    @Test
    void shouldGiveTheSameIdWhenTheSameSchemaIsRegisteredAgain() {
        var registry = new MockSchemaRegistry();

        int id = registry.register("things-value", V1);

        assertThat(registry.register("things-value", V1)).isEqualTo(id);
        assertThat(registry.register("other-value", V1)).isEqualTo(id);
        assertThat(registry.getById(id)).isEqualTo(V1);
    }

    @Test
    void shouldShareOneRegistryPerScopeAcrossClients() {
        SchemaRegistryClient a = SchemaRegistryClients.forConfig(Map.of("schema.registry.url", "mock://mock-test-a"));
        SchemaRegistryClient again = SchemaRegistryClients.forConfig(Map.of("schema.registry.url", "mock://mock-test-a"));
        SchemaRegistryClient b = SchemaRegistryClients.forConfig(Map.of("schema.registry.url", "mock://mock-test-b"));

        int id = a.register("things-value", V1);

        assertThat(again.getById(id)).isEqualTo(V1);
        assertThatThrownBy(() -> b.getById(id)).isInstanceOfSatisfying(SchemaRegistryException.class,
            e -> assertThat(e.isNotFound()).isTrue());
    }

    @Test
    void shouldAcceptANewFieldWithADefaultUnderBackward() {
        var registry = new MockSchemaRegistry();
        int v1 = registry.register("things-value", V1);

        assertThat(registry.register("things-value", V2_WITH_DEFAULT)).isNotEqualTo(v1);
        assertThat(registry.lookup("things-value", V2_WITH_DEFAULT)).get()
            .extracting(RegisteredSchema::version).isEqualTo(2);
    }

    @Test
    void shouldRejectABreakingChangeWith409UnderBackward() {
        var registry = new MockSchemaRegistry();
        registry.register("things-value", V1);

        assertThat(registry.isCompatible("things-value", V2_BREAKING)).isFalse();
        assertThatThrownBy(() -> registry.register("things-value", V2_BREAKING))
            .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                assertThat(e.isIncompatible()).isTrue();
                assertThat(e.getMessage()).contains("things-value", "owner");
            });
    }

    @Test
    void shouldAcceptABreakingChangeWhenTheSubjectLevelIsNone() {
        var registry = new MockSchemaRegistry();
        registry.register("things-value", V1);
        registry.setCompatibility("things-value", CompatibilityLevel.NONE);

        registry.register("things-value", V2_BREAKING);

        assertThat(registry.getCompatibility("things-value")).isEqualTo(CompatibilityLevel.NONE);
        assertThat(registry.getCompatibility(null)).isEqualTo(CompatibilityLevel.BACKWARD);
    }

    @Test
    void shouldCheckEveryEarlierVersionWhenTransitive() {
        var registry = new MockSchemaRegistry();
        registry.setCompatibility(null, CompatibilityLevel.NONE);
        registry.register("things-value", V1);
        registry.register("things-value", V2_BREAKING);
        Schema v3 = SchemaBuilder.record("Thing").namespace("t").fields()
            .requiredString("name").requiredString("owner").name("size").type().intType().intDefault(1).endRecord();

        registry.setCompatibility("things-value", CompatibilityLevel.BACKWARD);
        assertThat(registry.isCompatible("things-value", v3)).isTrue();
        registry.setCompatibility("things-value", CompatibilityLevel.BACKWARD_TRANSITIVE);
        assertThat(registry.isCompatible("things-value", v3)).isFalse();
    }

    @Test
    void shouldLookUpNothingForAnUnknownSubjectOrSchema() {
        var registry = new MockSchemaRegistry();
        registry.register("things-value", V1);

        assertThat(registry.lookup("nothing-value", V1)).isEmpty();
        assertThat(registry.lookup("things-value", V2_WITH_DEFAULT)).isEmpty();
        assertThat(registry.isCompatible("nothing-value", V2_BREAKING)).isTrue();
    }
}
