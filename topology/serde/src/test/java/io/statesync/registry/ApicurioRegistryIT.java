package io.statesync.registry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import io.statesync.avro.Resource;
import io.statesync.embedded.EmbeddedRegistry;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static io.statesync.registry.MockSchemaRegistryTest.V1;
import static io.statesync.registry.MockSchemaRegistryTest.V2_BREAKING;
import static io.statesync.registry.MockSchemaRegistryTest.V2_WITH_DEFAULT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The HTTP client against the real registry statesync embeds: Apicurio's Confluent-compatible API. */
@ExtendWith(EmbeddedClusterExtension.class)
class ApicurioRegistryIT {

    private final String subject = "it-" + UUID.randomUUID() + "-value";

    @Test
    void shouldRegisterASchemaAndFetchItByIdFromAnotherClient(EmbeddedCluster cluster) {
        int id = client(cluster.registryUrl()).register(subject, Resource.SCHEMA$);

        Schema fetched = client(cluster.registryUrl()).getById(id);

        assertThat(fetched).isEqualTo(Resource.SCHEMA$);
        assertThat(client(cluster.registryUrl()).register(subject, Resource.SCHEMA$)).isEqualTo(id);
        assertThat(client(cluster.registryUrl()).lookup(subject, Resource.SCHEMA$))
            .contains(new RegisteredSchema(subject, id, 1));
    }

    @Test
    void shouldServeRepeatedCallsFromCacheWithoutAnotherHttpRequest(EmbeddedCluster cluster) throws IOException {
        int id = client(cluster.registryUrl()).register(subject, Resource.SCHEMA$);
        try (RecordingProxy proxy = new RecordingProxy(cluster.registryUrl())) {
            var client = client(proxy.url());

            for (int i = 0; i < 5; i++) {
                assertThat(client.getById(id)).isEqualTo(Resource.SCHEMA$);
                assertThat(client.register(subject, Resource.SCHEMA$)).isEqualTo(id);
            }

            assertThat(proxy.requests()).containsExactly("GET /schemas/ids/" + id,
                "POST /subjects/" + subject + "/versions");
        }
    }

    @Test
    void shouldRejectABreakingChangeWith409UnderBackward(EmbeddedCluster cluster) {
        var client = client(cluster.registryUrl());
        client.setCompatibility(subject, CompatibilityLevel.BACKWARD);
        client.register(subject, V1);

        assertThat(client.getCompatibility(subject)).isEqualTo(CompatibilityLevel.BACKWARD);
        assertThat(client.isCompatible(subject, V2_BREAKING)).isFalse();
        assertThatThrownBy(() -> client.register(subject, V2_BREAKING))
            .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                assertThat(e.status()).isEqualTo(409);
                assertThat(e.isRetriable()).isFalse();
                assertThat(e.getMessage()).contains("HTTP 409", "error code");
            });
        assertThat(client.isCompatible(subject, V2_WITH_DEFAULT)).isTrue();
        assertThat(client.register(subject, V2_WITH_DEFAULT)).isPositive();
    }

    @Test
    void shouldFindNothingForAnUnknownSubjectOrId(EmbeddedCluster cluster) {
        var client = client(cluster.registryUrl());

        assertThat(client.lookup(subject, V1)).isEmpty();
        assertThatThrownBy(() -> client.getById(Integer.MAX_VALUE))
            .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                assertThat(e.isNotFound()).isTrue();
                assertThat(e.errorCode()).isEqualTo(40403);
            });
    }

    @Test
    void shouldKeepSchemasAcrossARegistryRestart(@TempDir Path dir) {
        try (EmbeddedRegistry registry = new EmbeddedRegistry(dir.resolve("data"), 0, dir.resolve("registry.log"))) {
            registry.start();
            var before = client(registry.url());
            int id = before.register(subject, Resource.SCHEMA$);
            before.setCompatibility(subject, CompatibilityLevel.FULL);

            registry.stop();
            registry.start();

            var fresh = client(registry.url());
            assertThat(fresh.getById(id)).isEqualTo(Resource.SCHEMA$);
            assertThat(fresh.register(subject, Resource.SCHEMA$)).isEqualTo(id);
            assertThat(fresh.getCompatibility(subject)).isEqualTo(CompatibilityLevel.FULL);
        }
    }

    private static SchemaRegistryClient client(String url) {
        return new HttpSchemaRegistryClient(RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, url)));
    }
}
