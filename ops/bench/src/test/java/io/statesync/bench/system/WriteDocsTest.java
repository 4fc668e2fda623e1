package io.statesync.bench.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

/** The REST writes suite's documents parse as the server and the CLI read them, each a distinct real change. */
class WriteDocsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldGenerateOneDistinctlyNamedYamlDocumentPerResource() throws Exception {
        StringWriter out = new StringWriter();
        WriteDocs.yaml(out, "a-", 25);
        List<JsonNode> docs = new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class).<JsonNode>readValues(out.toString()).readAll();
        assertThat(docs).hasSize(25);
        assertThat(docs).allSatisfy(d -> {
            assertThat(d.path("kind").asText()).isEqualTo("WebApp");
            assertThat(d.path("metadata").path("namespace").asText()).isEqualTo("bench");
            assertThat(d.path("spec").path("replicas").asInt()).isEqualTo(3);
        });
        assertThat(docs.stream().map(d -> d.path("metadata").path("name").asText()).distinct()).hasSize(25).contains("a-0", "a-24");
        assertThat(docs.get(7).path("spec").path("image").asText()).isEqualTo("nginx:1.7");
    }

    @Test
    void shouldPutEveryNamedDocumentInOneBulkBodyWithTheGivenSpec() throws Exception {
        JsonNode body = JSON.readTree(WriteDocs.bulkBody(List.of("x", "y", "z"), 42));
        assertThat(body.path("kind").asText()).isEqualTo("BulkWrite");
        assertThat(body.path("items")).hasSize(3);
        JsonNode last = body.path("items").get(2);
        assertThat(last.path("op").asText()).isEqualTo("put");
        assertThat(last.path("object").path("metadata").path("name").asText()).isEqualTo("z");
        assertThat(last.path("object").path("spec").path("seq").asLong()).isEqualTo(42);
    }

    @Test
    void shouldCarryTheSequenceInThePutSpecSoThatEveryWriteChangesIt() throws Exception {
        assertThat(JSON.readTree(WriteDocs.putBody(7)).path("spec").path("seq").asLong()).isEqualTo(7);
        assertThat(WriteDocs.putBody(7)).isNotEqualTo(WriteDocs.putBody(8));
        assertThat(WriteDocs.path("s-1")).isEqualTo("/api/v1/resources/WebApp/bench/s-1");
    }

    @Test
    void shouldReadAContenderAsOverridesOrAsTheDefaults() {
        assertThat(RestWritesSuite.parse("defaults")).isEmpty();
        assertThat(RestWritesSuite.parse("admission.commit.interval.ms=0, commit.interval.ms=50"))
            .isEqualTo(Map.of("admission.commit.interval.ms", "0", "commit.interval.ms", "50"));
        assertThatThrownBy(() -> RestWritesSuite.parse("commit.interval.ms")).isInstanceOf(IllegalArgumentException.class);
    }
}
