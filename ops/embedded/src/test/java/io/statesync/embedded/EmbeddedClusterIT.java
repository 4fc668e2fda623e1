package io.statesync.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedClusterExtension.class)
class EmbeddedClusterIT {
    private static final String SCHEMA_V1 = "{\"type\":\"record\",\"name\":\"Widget\",\"namespace\":\"io.statesync.test\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";
    /** Adds a field without a default: readers of the new schema cannot read old data, so BACKWARD rejects it. */
    private static final String SCHEMA_V2_BREAKING = "{\"type\":\"record\",\"name\":\"Widget\",\"namespace\":\"io.statesync.test\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"size\",\"type\":\"long\"}]}";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void shouldProduceAndConsumeThroughEmbeddedBroker(EmbeddedCluster cluster) throws Exception {
        List<String> values = IntStream.range(0, 50).mapToObj(i -> "record-" + i).toList();

        KafkaRoundTrip.produce(cluster.bootstrapServers(), "round-trip", values);

        assertThat(KafkaRoundTrip.consume(cluster.bootstrapServers(), "round-trip", values.size(), Duration.ofSeconds(30)))
                .containsExactlyElementsOf(values);
    }

    @Test
    void shouldRegisterAvroSchemaAndFetchItBackById(EmbeddedCluster cluster) throws Exception {
        HttpResponse<String> registered = post(cluster.registryUrl() + "/subjects/widgets-value/versions", SCHEMA_V1);
        assertThat(registered.statusCode()).isEqualTo(200);
        int id = Integer.parseInt(firstGroup("\"id\"\\s*:\\s*(\\d+)", registered.body()));

        HttpResponse<String> fetched = get(cluster.registryUrl() + "/schemas/ids/" + id);

        assertThat(fetched.statusCode()).isEqualTo(200);
        assertThat(fetched.body()).contains(jsonString(SCHEMA_V1));
    }

    @Test
    void shouldUseBackwardAsGlobalCompatibility(EmbeddedCluster cluster) throws Exception {
        HttpResponse<String> config = get(cluster.registryUrl() + "/config");

        assertThat(config.statusCode()).isEqualTo(200);
        assertThat(firstGroup("\"compatibilityLevel\"\\s*:\\s*\"(\\w+)\"", config.body())).isEqualTo("BACKWARD");
    }

    @Test
    void shouldRejectSchemaChangeThatBreaksBackwardCompatibility(EmbeddedCluster cluster) throws Exception {
        String versions = cluster.registryUrl() + "/subjects/gadgets-value/versions";
        assertThat(post(versions, SCHEMA_V1).statusCode()).isEqualTo(200);

        assertThat(post(versions, SCHEMA_V2_BREAKING).statusCode()).isEqualTo(409);
    }

    @Test
    void shouldHandOutTheSameClusterThroughStaticAccessors(EmbeddedCluster cluster) {
        assertThat(EmbeddedClusterExtension.bootstrapServers()).isEqualTo(cluster.bootstrapServers());
        assertThat(EmbeddedClusterExtension.registryUrl()).isEqualTo(cluster.registryUrl())
                .matches("http://127\\.0\\.0\\.1:\\d+/apis/ccompat/v7");
        assertThat(cluster.brokerKind()).isIn("in-process", "testcontainers");
    }

    private static HttpResponse<String> post(String url, String schema) throws IOException, InterruptedException {
        String body = "{\"schema\":" + jsonString(schema) + "}";
        return HTTP.send(request(url).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(request(url).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json");
    }

    /** The schema as a JSON string literal, the way the Confluent API nests it. */
    private static String jsonString(String raw) {
        return "\"" + raw.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String firstGroup(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("%s in %s", regex, text).isTrue();
        return m.group(1);
    }
}
