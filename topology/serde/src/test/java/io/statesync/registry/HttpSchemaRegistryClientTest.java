package io.statesync.registry;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.statesync.registry.StubRegistryServer.error;
import static io.statesync.registry.StubRegistryServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HttpSchemaRegistryClientTest {

    static final Schema SCHEMA = new Schema.Parser().parse(
        "{\"type\":\"record\",\"name\":\"Thing\",\"namespace\":\"t\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private StubRegistryServer stub;

    @BeforeEach
    void start() throws IOException {
        stub = StubRegistryServer.http();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    @Test
    void shouldPostSchemaStringOnceAndServeTheIdFromCache() throws IOException {
        stub.on("POST", "/subjects/things-value/versions", ok("{\"id\":7}"));
        var client = client(Map.of());

        assertThat(client.register("things-value", SCHEMA)).isEqualTo(7);
        assertThat(client.register("things-value", SCHEMA)).isEqualTo(7);

        assertThat(stub.requests()).hasSize(1);
        var request = stub.requests().get(0);
        assertThat(request.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(JSON.readTree(request.body()).get("schema").asText()).isEqualTo(SCHEMA.toString());
    }

    @Test
    void shouldServeARegisteredSchemaByIdWithoutAnotherCall() {
        stub.on("POST", "/subjects/things-value/versions", ok("{\"id\":7}"));
        var client = client(Map.of());
        client.register("things-value", SCHEMA);

        assertThat(client.getById(7)).isSameAs(SCHEMA);
        assertThat(stub.requests()).hasSize(1);
    }

    @Test
    void shouldFetchSchemaByIdOnce() throws IOException {
        stub.on("GET", "/schemas/ids/3", ok(JSON.writeValueAsString(Map.of("schema", SCHEMA.toString()))));
        var client = client(Map.of());

        assertThat(client.getById(3)).isEqualTo(SCHEMA);
        assertThat(client.getById(3)).isEqualTo(SCHEMA);
        assertThat(stub.requests()).hasSize(1);
    }

    @Test
    void shouldRejectANonAvroSchemaById() throws IOException {
        stub.on("GET", "/schemas/ids/4", ok(JSON.writeValueAsString(Map.of("schema", "{}", "schemaType", "JSON"))));

        assertThatThrownBy(() -> client(Map.of()).getById(4)).hasMessageContaining("JSON, not AVRO");
    }

    @Test
    void shouldRetryTransient5xxWithBackoffAndThenSucceed() {
        stub.on("GET", "/schemas/ids/3", error(503, 50301, "busy"), error(500, 50001, "oops"),
            ok("{\"schema\":\"\\\"string\\\"\"}"));

        assertThat(client(Map.of()).getById(3).getType()).isEqualTo(Schema.Type.STRING);
        assertThat(stub.requests()).hasSize(3);
    }

    @Test
    void shouldGiveUpAfterTheConfiguredRetriesAsRetriable() {
        stub.on("GET", "/schemas/ids/3", error(503, 50301, "busy"));

        assertThatThrownBy(() -> client(Map.of(RegistryClientConfig.RETRIES, "2")).getById(3))
            .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                assertThat(e.isRetriable()).isTrue();
                assertThat(e.status()).isEqualTo(503);
                assertThat(e.getMessage()).contains("gave up after 3 attempts");
            });
        assertThat(stub.requests()).hasSize(3);
    }

    @Test
    void shouldFailFastOn4xxWithTheRegistryErrorCodeInTheMessage() {
        stub.on("POST", "/subjects/things-value/versions", error(422, 42201, "Invalid schema"));

        assertThatThrownBy(() -> client(Map.of()).register("things-value", SCHEMA))
            .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                assertThat(e.isRetriable()).isFalse();
                assertThat(e.status()).isEqualTo(422);
                assertThat(e.errorCode()).isEqualTo(42201);
                assertThat(e.getMessage()).contains("HTTP 422", "error code 42201", "Invalid schema");
            });
        assertThat(stub.requests()).hasSize(1);
    }

    @Test
    void shouldReportAnIncompatibleSchemaAs409() {
        stub.on("POST", "/subjects/things-value/versions", error(409, 409, "incompatible"));

        assertThatThrownBy(() -> client(Map.of()).register("things-value", SCHEMA))
            .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.isIncompatible()).isTrue());
    }

    @Test
    void shouldTreatA409AsSuccessWhenAConcurrentWriterRegisteredTheSameSchema() {
        stub.on("POST", "/subjects/things-value/versions", error(409, 409, "concurrent registration"));
        stub.on("POST", "/subjects/things-value", ok("{\"id\":12,\"version\":1,\"subject\":\"things-value\"}"));

        assertThat(client(Map.of()).register("things-value", SCHEMA)).isEqualTo(12);
    }

    @Test
    void shouldMoveToTheNextUrlWhenOneCannotBeReached() throws IOException {
        stub.on("GET", "/schemas/ids/3", ok("{\"schema\":\"\\\"long\\\"\"}"));
        String dead = "http://127.0.0.1:" + freePort();

        var client = new HttpSchemaRegistryClient(config(Map.of(RegistryClientConfig.URL, dead + "," + stub.url())));

        assertThat(client.getById(3).getType()).isEqualTo(Schema.Type.LONG);
    }

    @Test
    void shouldRetryConnectionFailuresAsRetriable() throws IOException {
        String dead = "http://127.0.0.1:" + freePort();
        var client = new HttpSchemaRegistryClient(config(Map.of(RegistryClientConfig.URL, dead,
            RegistryClientConfig.RETRIES, "1")));

        assertThatThrownBy(() -> client.getById(3)).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
            assertThat(e.isRetriable()).isTrue();
            assertThat(e.status()).isEqualTo(SchemaRegistryException.NO_STATUS);
            assertThat(e.getMessage()).contains("could not be reached", "gave up after 2 attempts");
        });
    }

    @Test
    void shouldSendBasicAuthUserInfo() {
        stub.on("GET", "/schemas/ids/3", ok("{\"schema\":\"\\\"long\\\"\"}"));

        client(Map.of(RegistryClientConfig.BASIC_AUTH_USER_INFO, "alice:s3cret:x")).getById(3);

        assertThat(stub.requests().get(0).authorization()).isEqualTo("Basic "
            + Base64.getEncoder().encodeToString("alice:s3cret:x".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void shouldSendBearerToken() {
        stub.on("GET", "/schemas/ids/3", ok("{\"schema\":\"\\\"long\\\"\"}"));

        client(Map.of(RegistryClientConfig.BEARER_AUTH_TOKEN, "tok-123")).getById(3);

        assertThat(stub.requests().get(0).authorization()).isEqualTo("Bearer tok-123");
    }

    @Test
    void shouldLookUpWithoutRegisteringAndCacheTheAnswer() {
        stub.on("POST", "/subjects/things-value", ok("{\"id\":9,\"version\":2,\"subject\":\"things-value\"}"));
        var client = client(Map.of());

        assertThat(client.lookup("things-value", SCHEMA)).contains(new RegisteredSchema("things-value", 9, 2));
        assertThat(client.lookup("things-value", SCHEMA)).isPresent();
        assertThat(stub.requests()).extracting(StubRegistryServer.Request::path).containsExactly("/subjects/things-value");
    }

    @Test
    void shouldLookUpNothingWhenTheSubjectDoesNotHoldTheSchema() {
        stub.on("POST", "/subjects/things-value", error(404, 40403, "Schema not found"));

        assertThat(client(Map.of()).lookup("things-value", SCHEMA)).isEmpty();
    }

    @Test
    void shouldEncodeSubjectsInThePath() {
        stub.on("POST", "/subjects/odd%20name%2Fx-value/versions", ok("{\"id\":1}"));

        assertThat(client(Map.of()).register("odd name/x-value", SCHEMA)).isEqualTo(1);
    }

    @Test
    void shouldPutAndGetSubjectCompatibility() throws IOException {
        stub.on("PUT", "/config/things-value", ok("{\"compatibility\":\"BACKWARD\"}"))
            .on("GET", "/config/things-value", ok("{\"compatibilityLevel\":\"BACKWARD\"}"));
        var client = client(Map.of());

        client.setCompatibility("things-value", CompatibilityLevel.BACKWARD);

        assertThat(JSON.readTree(stub.requests().get(0).body()).get("compatibility").asText()).isEqualTo("BACKWARD");
        assertThat(client.getCompatibility("things-value")).isEqualTo(CompatibilityLevel.BACKWARD);
    }

    @Test
    void shouldFallBackToTheGlobalLevelForASubjectWithoutItsOwn() {
        stub.on("GET", "/config", ok("{\"compatibilityLevel\":\"FULL\"}"));

        assertThat(client(Map.of()).getCompatibility("things-value")).isEqualTo(CompatibilityLevel.FULL);
    }

    @Test
    void shouldSetTheGlobalLevelForANullSubject() {
        stub.on("PUT", "/config", ok("{\"compatibility\":\"BACKWARD\"}"));

        client(Map.of()).setCompatibility(null, CompatibilityLevel.BACKWARD);

        assertThat(stub.requests().get(0).path()).isEqualTo("/config");
    }

    @Test
    void shouldAskTheRegistryWhetherASchemaIsCompatible() {
        stub.on("POST", "/compatibility/subjects/things-value/versions/latest", ok("{\"is_compatible\":false}"));

        assertThat(client(Map.of()).isCompatible("things-value", SCHEMA)).isFalse();
    }

    @Test
    void shouldCallASchemaCompatibleWithASubjectThatHasNoVersions() {
        stub.on("POST", "/compatibility/subjects/things-value/versions/latest", error(404, 40402, "no version"));

        assertThat(client(Map.of()).isCompatible("things-value", SCHEMA)).isTrue();
    }

    private HttpSchemaRegistryClient client(Map<String, String> extra) {
        return new HttpSchemaRegistryClient(config(extra));
    }

    private RegistryClientConfig config(Map<String, String> extra) {
        Map<String, Object> c = new HashMap<>();
        c.put(RegistryClientConfig.URL, stub.url());
        c.put(RegistryClientConfig.RETRY_BACKOFF_MS, "1");
        c.put(RegistryClientConfig.RETRY_BACKOFF_MAX_MS, "5");
        c.putAll(extra);
        return RegistryClientConfig.fromMap(c);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
