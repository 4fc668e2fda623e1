package io.statesync.registry;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaRegistryClientsTest {

    @Test
    void shouldPickTheMockRegistryForMockUrls() {
        assertThat(SchemaRegistryClients.forConfig(Map.of("schema.registry.url", "mock://clients-test")))
            .isSameAs(MockSchemaRegistry.forScope("clients-test"));
        MockSchemaRegistry.dropScope("clients-test");
    }

    @Test
    void shouldPickTheHttpClientForHttpUrls() {
        assertThat(SchemaRegistryClients.forConfig(Map.of("schema.registry.url", "http://127.0.0.1:8081")))
            .isInstanceOf(HttpSchemaRegistryClient.class);
    }

    @Test
    void shouldRequireAUrl() {
        assertThatThrownBy(() -> SchemaRegistryClients.forConfig(Map.of("schema.registry.url", " ")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema.registry.url");
    }
}
