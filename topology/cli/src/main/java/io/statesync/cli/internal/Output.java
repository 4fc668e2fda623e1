package io.statesync.cli.internal;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

/** Renders JSON answers as pretty JSON, YAML or aligned tables. */
public final class Output {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private Output() {
    }

    public static void print(PrintWriter out, JsonNode node, String format) {
        try {
            if ("yaml".equals(format)) {
                out.print(YAML.writeValueAsString(node));
            } else {
                out.println(JSON.writeValueAsString(node));
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        out.flush();
    }

    /** Prints rows under a header, each column as wide as its widest cell. */
    public static void table(PrintWriter out, List<String> header, List<List<String>> rows) {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        int[] width = new int[header.size()];
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        for (List<String> row : all) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                sb.append(i == row.size() - 1 ? row.get(i) : String.format("%-" + (width[i] + 3) + "s", row.get(i)));
            }
            out.println(sb.toString().stripTrailing());
        }
        out.flush();
    }

    /** The table row of a resource: KIND, NAMESPACE, NAME, SYNC, HEALTH, GEN, OBSERVED-GEN, VERSION. */
    public static List<String> resourceRow(JsonNode r) {
        JsonNode m = r.path("metadata");
        return List.of(r.path("kind").asText(), m.path("namespace").asText(), m.path("name").asText(),
            r.path("status").path("syncStatus").asText("-"), r.path("status").path("health").path("status").asText("-"),
            m.path("generation").asText(),
            r.path("status").path("observedGeneration").asText("0"), m.path("resourceVersion").asText());
    }

    public static final List<String> RESOURCE_HEADER =
        List.of("KIND", "NAMESPACE", "NAME", "SYNC", "HEALTH", "GEN", "OBSERVED-GEN", "VERSION");
}
