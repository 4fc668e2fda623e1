package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * A CustomResourceDefinition version's {@code additionalPrinterColumns}: each column's name, type, format, priority
 * and description, and its cell read from an object by the column's JSONPath. The paths Kubernetes' printer columns
 * take are simple field paths ({@code .spec.size}, {@code .status.conditions[0].type}, {@code .metadata.labels['a.b/c']});
 * a path that finds nothing gives an empty cell, as in Kubernetes.
 */
final class PrinterColumns {

    /** One column; {@code path} is its JSONPath as segments: field names and list positions. */
    record Column(String name, String type, String format, int priority, String description, List<Object> path) {

        /** The cell of {@code object}: the value at the path, as Kubernetes shows the column's type. */
        JsonNode cell(JsonNode object) {
            JsonNode v = object;
            for (Object segment : path) {
                v = segment instanceof Integer i ? v.path(i) : v.path((String) segment);
            }
            if (v.isMissingNode() || v.isNull()) {
                return JsonNodeFactory.instance.nullNode();
            }
            if ("date".equals(type) && v.isTextual()) {
                return JsonNodeFactory.instance.textNode(Tables.age(v.asText()));
            }
            return v.isContainerNode() ? JsonNodeFactory.instance.textNode(v.toString()) : v;
        }
    }

    private PrinterColumns() {
    }

    /** The served version's columns; none for a kind without a definition, or a column whose path does not parse. */
    static List<Column> of(KindCatalog.Served served) {
        JsonNode version = served.kind().definitionVersion(served.version());
        List<Column> out = new ArrayList<>();
        if (version == null) {
            return out;
        }
        for (JsonNode c : version.path("additionalPrinterColumns")) {
            List<Object> path = parse(c.path("jsonPath").asText(""));
            if (path != null && !c.path("name").asText("").isEmpty()) {
                String type = c.path("type").asText("string");
                out.add(new Column(c.path("name").asText(), "date".equals(type) ? "string" : type,
                    c.path("format").asText(""), c.path("priority").asInt(0), c.path("description").asText(""), path));
            }
        }
        return out;
    }

    /**
     * {@code .a.b[0]['c.d']}, with or without Kubernetes' braces, as segments; null when it is not a simple field
     * path.
     */
    static List<Object> parse(String jsonPath) {
        String p = jsonPath.trim();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1);
        }
        List<Object> out = new ArrayList<>();
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
                    end++;
                }
                if (end == i + 1) {
                    return null;
                }
                out.add(p.substring(i + 1, end));
                i = end;
            } else if (c == '[') {
                int close = p.indexOf(']', i);
                if (close < 0) {
                    return null;
                }
                String inner = p.substring(i + 1, close);
                if (inner.matches("[0-9]{1,9}")) {
                    out.add(Integer.parseInt(inner));
                } else if (inner.length() >= 2 && (inner.startsWith("'") && inner.endsWith("'")
                    || inner.startsWith("\"") && inner.endsWith("\""))) {
                    out.add(inner.substring(1, inner.length() - 1));
                } else {
                    return null;
                }
                i = close + 1;
            } else {
                return null;
            }
        }
        return out.isEmpty() ? null : out;
    }
}
