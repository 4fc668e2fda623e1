package io.statesync.reconciler.internal;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Writes trees as compact JSON, for messages and fingerprints. Non-finite doubles are written as strings. */
public final class JsonWriter {
    private JsonWriter() {
    }

    public static String write(Object tree, boolean sortKeys) {
        StringBuilder out = new StringBuilder();
        write(tree, sortKeys, out);
        return out.toString();
    }

    private static void write(Object v, boolean sortKeys, StringBuilder out) {
        if (v instanceof Map<?, ?> map) {
            Map<?, ?> ordered = sortKeys ? new TreeMap<>(map) : map;
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ordered.entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                string(e.getKey().toString(), out);
                out.append(':');
                write(e.getValue(), sortKeys, out);
            }
            out.append('}');
        } else if (v instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(list.get(i), sortKeys, out);
            }
            out.append(']');
        } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            string(d.toString(), out);
        } else if (v instanceof String s) {
            string(s, out);
        } else {
            out.append(v);
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
