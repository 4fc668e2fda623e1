package io.statesync.kube.internal;

import java.util.Map;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.rest.ApiError;

/**
 * Kubernetes' {@code Status} object for the errors of the Kubernetes API: the server's own error reasons mapped to
 * the reasons Kubernetes clients branch on (a 410 is {@code Expired}, so that informers list again).
 */
public final class KubeStatus {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Map<String, String> REASONS = Map.of(
        "Gone", "Expired",
        "ValidationFailed", "Invalid",
        "TooSlow", "TooManyRequests",
        "HttpError", "BadRequest",
        "Upstream", "InternalError");
    private static final Map<Integer, String> BY_CODE = Map.ofEntries(
        Map.entry(400, "BadRequest"), Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"),
        Map.entry(404, "NotFound"), Map.entry(405, "MethodNotAllowed"), Map.entry(406, "NotAcceptable"),
        Map.entry(409, "Conflict"), Map.entry(410, "Expired"), Map.entry(413, "RequestEntityTooLarge"),
        Map.entry(415, "UnsupportedMediaType"), Map.entry(422, "Invalid"), Map.entry(429, "TooManyRequests"),
        Map.entry(500, "InternalError"), Map.entry(503, "ServiceUnavailable"), Map.entry(504, "Timeout"));

    private KubeStatus() {
    }

    /**
     * The Status of an error; {@code group}, {@code resource} and {@code name} fill {@code details} when known (null
     * otherwise).
     */
    public static ObjectNode of(ApiError e, String group, String resource, String name) {
        ObjectNode n = of(e.code(), reason(e), e.getMessage(), resource, name);
        if (resource != null && group != null) {
            ((ObjectNode) n.get("details")).put("group", group);
        }
        if (e.subject() != null) {
            ((ObjectNode) n.get("details")).put("group", e.subject().group()).put("kind", e.subject().kind())
                .put("name", e.subject().name());
        }
        if (!e.causes().isEmpty()) {
            ArrayNode causes = ((ObjectNode) n.get("details")).putArray("causes");
            for (ApiError.Cause c : e.causes()) {
                causes.addObject().put("reason", c.reason()).put("message", c.message()).put("field", c.field());
            }
        }
        return n;
    }

    public static ObjectNode of(int code, String reason, String message, String resource, String name) {
        ObjectNode n = JSON.objectNode().put("kind", "Status").put("apiVersion", "v1");
        n.putObject("metadata");
        n.put("status", "Failure").put("message", message == null ? "" : message).put("reason", reason);
        ObjectNode details = n.putObject("details");
        if (name != null) {
            details.put("name", name);
        }
        if (resource != null) {
            details.put("group", KubePaths.GROUP).put("kind", resource);
        }
        n.put("code", code);
        return n;
    }

    /** A Status of success, as a delete answers. */
    public static ObjectNode success(String group, String resource, String name, String uid) {
        ObjectNode n = JSON.objectNode().put("kind", "Status").put("apiVersion", "v1");
        n.putObject("metadata");
        n.put("status", "Success");
        ObjectNode details = n.putObject("details").put("name", name).put("group", group).put("kind", resource);
        if (uid != null) {
            details.put("uid", uid);
        }
        return n;
    }

    /** Kubernetes' reason for the server's own one: the same word where Kubernetes has it, else the code's reason. */
    static String reason(ApiError e) {
        String mapped = REASONS.get(e.reason());
        if (mapped != null) {
            return mapped;
        }
        if (BY_CODE.containsValue(e.reason()) || e.reason().equals("AlreadyExists")) {
            return e.reason();
        }
        return BY_CODE.getOrDefault(e.code(), e.reason());
    }

    /** The error of a method a path does not take, as Kubernetes answers it. */
    public static ApiError methodNotAllowed(String message) {
        return new ApiError(405, "MethodNotAllowed", message);
    }
}
