package io.statesync.connect.internal;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.FieldOp;
import io.statesync.schemas.Values;

/**
 * Turns a {@link Correction} into the HTTP request an actuator expects. The statesync identity of the command travels
 * in headers, so an actuator can report which generation and command it applied.
 */
public final class CorrectionRequests {

    public static final String COMMAND_ID = "X-Statesync-Command-Id";
    public static final String GENERATION = "X-Statesync-Generation";
    public static final String UID = "X-Statesync-Uid";
    public static final String ATTEMPT = "X-Statesync-Attempt";
    public static final String REASON = "X-Statesync-Reason";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String urlTemplate;
    private final boolean patchUpdates;
    private final String authName;
    private final String authValue;
    private final Duration timeout;

    public CorrectionRequests(String urlTemplate, String updateMethod, String authName, String authValue,
                              Duration timeout) {
        this.urlTemplate = urlTemplate;
        this.patchUpdates = "PATCH".equalsIgnoreCase(updateMethod);
        this.authName = authName;
        this.authValue = authValue;
        this.timeout = timeout;
    }

    public HttpRequest build(Correction c) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(c))
            .timeout(timeout)
            .header(COMMAND_ID, c.getCommandId())
            .header(GENERATION, Long.toString(c.getGeneration()))
            .header(UID, c.getUid())
            .header(ATTEMPT, Integer.toString(c.getAttempt()))
            .header(REASON, c.getReason().name());
        if (authValue != null) {
            b.header(authName, authValue);
        }
        Action action = c.getAction();
        if (action == Action.DELETE) {
            return b.DELETE().build();
        }
        String method = action == Action.CREATE ? "POST" : patchUpdates ? "PATCH" : "PUT";
        String body = method.equals("PATCH") ? patchJson(c) : Values.toJson(c.getDesiredSpec()).toString();
        return b.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build();
    }

    URI uri(Correction c) {
        return URI.create(urlTemplate
            .replace("{kind}", encode(c.getKind()))
            .replace("{namespace}", encode(c.getNamespace()))
            .replace("{name}", encode(c.getName())));
    }

    /** The patch as {@code [{"op":"SET","path":["spec","replicas"],"value":5}, ...]}; REMOVE has no value. */
    static String patchJson(Correction c) {
        ArrayNode ops = JSON.createArrayNode();
        for (FieldOp op : c.getPatch()) {
            ObjectNode node = ops.addObject();
            node.put("op", op.getOp().name());
            ArrayNode path = node.putArray("path");
            op.getPath().forEach(path::add);
            if (op.getValue() != null) {
                node.set("value", Values.toJson(op.getValue()));
            }
        }
        return ops.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
