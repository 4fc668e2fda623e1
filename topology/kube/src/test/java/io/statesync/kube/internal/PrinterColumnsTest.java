package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class PrinterColumnsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldParseTheFieldPathsPrinterColumnsUse() {
        assertThat(PrinterColumns.parse(".spec.size")).containsExactly("spec", "size");
        assertThat(PrinterColumns.parse("{.status.conditions[0].type}")).containsExactly("status", "conditions", 0, "type");
        assertThat(PrinterColumns.parse(".metadata.labels['app.kubernetes.io/name']"))
            .containsExactly("metadata", "labels", "app.kubernetes.io/name");
    }

    @Test
    void shouldRefuseWhatIsNotASimpleFieldPath() {
        for (String bad : new String[] {"", "spec.size", ".spec..size", ".items[*].name", ".a[?(@.x)]", ".a["}) {
            assertThat(PrinterColumns.parse(bad)).as(bad).isNull();
        }
    }

    @Test
    void shouldReadACellAndLeaveAMissingOneEmpty() throws Exception {
        JsonNode o = JSON.readTree("{\"spec\":{\"size\":\"small\",\"count\":3,\"tags\":[\"a\"]}}");
        PrinterColumns.Column size = new PrinterColumns.Column("Size", "string", "", 0, "", List.of("spec", "size"));
        PrinterColumns.Column count = new PrinterColumns.Column("Count", "integer", "", 0, "", List.of("spec", "count"));
        PrinterColumns.Column tags = new PrinterColumns.Column("Tags", "string", "", 0, "", List.of("spec", "tags"));
        PrinterColumns.Column none = new PrinterColumns.Column("None", "string", "", 0, "", List.of("status", "x"));

        assertThat(size.cell(o).asText()).isEqualTo("small");
        assertThat(count.cell(o).asInt()).isEqualTo(3);
        assertThat(tags.cell(o).asText()).isEqualTo("[\"a\"]");
        assertThat(none.cell(o).isNull()).isTrue();
    }
}
