package io.statesync.bench.system;

import java.io.IOException;
import java.io.Writer;

/**
 * The documents the REST writes suite sends: a PUT body, a bulk write body and an {@code apply -f} YAML stream. All
 * are of kind {@value #KIND} in namespace {@value #NAMESPACE}, and {@code seq} lands in the spec, so that each write
 * with a new {@code seq} is a real change (a new generation), never an idempotent re-send.
 */
final class WriteDocs {

    static final String KIND = "WebApp";
    static final String NAMESPACE = "bench";

    private WriteDocs() {
    }

    /** The path of one resource under {@code /api/v1/resources}. */
    static String path(String name) {
        return "/api/v1/resources/" + KIND + "/" + NAMESPACE + "/" + name;
    }

    /** The body of a PUT: the spec only, since the path names the resource. */
    static String putBody(long seq) {
        return "{\"spec\":" + spec(seq) + "}";
    }

    /** {@code POST /api/v1/bulk} putting {@code names} at spec {@code seq}. */
    static String bulkBody(Iterable<String> names, long seq) {
        return bulkBody(names, seq, "put");
    }

    /** As {@link #bulkBody(Iterable, long)} with items of {@code op} (put, or apply for server-side applies). */
    static String bulkBody(Iterable<String> names, long seq, String op) {
        StringBuilder sb = new StringBuilder("{\"kind\":\"BulkWrite\",\"items\":[");
        String sep = "";
        for (String name : names) {
            sb.append(sep).append("{\"op\":\"").append(op).append("\",\"object\":{\"kind\":\"").append(KIND)
                .append("\",\"metadata\":{\"namespace\":\"").append(NAMESPACE).append("\",\"name\":\"").append(name)
                .append("\"},\"spec\":").append(spec(seq)).append("}}");
            sep = ",";
        }
        return sb.append("]}").toString();
    }

    /** {@code count} YAML documents named {@code prefix0 ...}, as a user's {@code statesync apply -f} file holds them. */
    static void yaml(Writer out, String prefix, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            out.write("---\nkind: " + KIND + "\nmetadata:\n  namespace: " + NAMESPACE + "\n  name: " + prefix + i
                + "\n  labels:\n    app: " + prefix + (i % 10) + "\nspec:\n  image: nginx:1." + i
                + "\n  replicas: 3\n  port: 8080\n  env:\n    LOG_LEVEL: info\n");
        }
    }

    private static String spec(long seq) {
        return "{\"image\":\"nginx:1." + seq + "\",\"replicas\":3,\"port\":8080,\"env\":{\"LOG_LEVEL\":\"info\"},\"seq\":" + seq + "}";
    }
}
