package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class ShownStatusTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OBJECT = "{\"metadata\":{\"name\":\"w\"},\"spec\":{\"replicas\":2},\"status\":{"
        + "\"readyReplicas\":2,\"syncStatus\":\"Synced\",\"health\":{\"status\":\"Healthy\"},"
        + "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"extra\":1}]}}";

    private static KindCatalog.Served served(String statusSchema) throws Exception {
        String schema = statusSchema == null ? "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\","
            + "\"x-kubernetes-preserve-unknown-fields\":true}}}"
            : "{\"type\":\"object\",\"properties\":{\"status\":" + statusSchema + "}}";
        ObjectNode definition = (ObjectNode) JSON.readTree("{\"versions\":[{\"name\":\"v1\",\"schema\":{\"openAPIV3Schema\":"
            + schema + "}}]}");
        KindCatalog.Kind kind = new KindCatalog.Kind("Widget.example.com", "example.com", List.of("v1"), "widgets", "widget",
            List.of(), List.of(), true, null, definition);
        return new KindCatalog.Served(kind, "v1");
    }

    @Test
    void shouldShowOnlyTheStatusFieldsADeclaredStatusSchemaKnows() throws Exception {
        KindCatalog.Served served = served("{\"type\":\"object\",\"properties\":{\"readyReplicas\":{\"type\":\"integer\"},"
            + "\"conditions\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"type\":{\"type\":\"string\"},"
            + "\"status\":{\"type\":\"string\"}}}}}}");

        ObjectNode shown = ShownStatus.of(served, (ObjectNode) JSON.readTree(OBJECT));

        assertThat(shown.path("status").toString())
            .isEqualTo("{\"readyReplicas\":2,\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}");
        assertThat(shown.path("spec").path("replicas").asInt()).isEqualTo(2);
    }

    @Test
    void shouldShowTheWholeStatusWhenTheSchemaKeepsUnknownStatusFieldsOrDeclaresNoStatus() throws Exception {
        KindCatalog.Served keeps = served("{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}");

        assertThat(ShownStatus.of(keeps, (ObjectNode) JSON.readTree(OBJECT)).toString()).isEqualTo(OBJECT);
        assertThat(ShownStatus.of(served(null), (ObjectNode) JSON.readTree(OBJECT)).toString()).isEqualTo(OBJECT);
    }
}
