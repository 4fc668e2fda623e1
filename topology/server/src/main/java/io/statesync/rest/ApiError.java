package io.statesync.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An error answer of the REST API: HTTP status plus the JSON body {@code {"code","reason","message"}} of docs/rest.md
 * and docs/contract.md, section 7. Handlers throw it; one exception handler renders it, so every error has the same shape.
 */
public final class ApiError extends RuntimeException {

    private final int code;
    private final String reason;
    private final String resourceVersion;
    private final Integer retryAfterSeconds;
    private final String errorId;
    private final List<Cause> causes;
    private final Subject subject;

    /**
     * The object an error is about, where it is not the one the request's path names (a create's object, say): the
     * Kubernetes Status names it in its details, and kubectl prints them.
     */
    public record Subject(String group, String kind, String name) {
    }

    /** One cause of an error field by field, as a Kubernetes StatusCause (an apply's FieldManagerConflict). */
    public record Cause(String reason, String message, String field) {
    }

    public ApiError(int code, String reason, String message) {
        this(code, reason, message, null, null);
    }

    private ApiError(int code, String reason, String message, String resourceVersion, Integer retryAfterSeconds) {
        this(code, reason, message, resourceVersion, retryAfterSeconds, null);
    }

    private ApiError(int code, String reason, String message, String resourceVersion, Integer retryAfterSeconds, String errorId) {
        this(code, reason, message, resourceVersion, retryAfterSeconds, errorId, List.of());
    }

    private ApiError(int code, String reason, String message, String resourceVersion, Integer retryAfterSeconds, String errorId,
                     List<Cause> causes) {
        this(code, reason, message, resourceVersion, retryAfterSeconds, errorId, causes, null);
    }

    private ApiError(int code, String reason, String message, String resourceVersion, Integer retryAfterSeconds, String errorId,
                     List<Cause> causes, Subject subject) {
        super(message, null, false, false);
        this.subject = subject;
        this.causes = List.copyOf(causes);
        this.code = code;
        this.reason = reason;
        this.resourceVersion = resourceVersion;
        this.retryAfterSeconds = retryAfterSeconds;
        this.errorId = errorId;
    }

    /**
     * A 500 for an unexpected failure: the body names only {@code errorId}, which the log line with the stack trace
     * carries too, so that a client learns nothing of the internals (classes, messages, paths) and the operator
     * finds the cause from the id a client quotes.
     */
    public static ApiError internal(String errorId) {
        return new ApiError(500, "InternalError", "internal error; the server's log has its cause under error id " + errorId,
            null, null, errorId);
    }

    public static ApiError badRequest(String message) {
        return new ApiError(400, "BadRequest", message);
    }

    public static ApiError unauthorized(String message) {
        return new ApiError(401, "Unauthorized", message);
    }

    public static ApiError forbidden(String message) {
        return new ApiError(403, "Forbidden", message);
    }

    /** A 403 with its causes field by field, as Kubernetes' admission refuses a write with a reason it names. */
    public static ApiError forbidden(String message, List<Cause> causes) {
        return new ApiError(403, "Forbidden", message, null, null, null, causes);
    }

    public static ApiError notFound(String message) {
        return new ApiError(404, "NotFound", message);
    }

    /** A failed compare-and-swap; the body and the ETag carry the version the client must re-read. */
    public static ApiError conflict(String message, String currentResourceVersion) {
        return new ApiError(409, "Conflict", message, currentResourceVersion, null);
    }

    /** 422 Invalid with one cause per field, as Kubernetes answers a write its validation refuses. */
    public static ApiError invalid(String message, List<Cause> causes) {
        return new ApiError(422, "Invalid", message, null, null, null, causes);
    }

    /**
     * A server-side apply refused because other managers own fields it would change: Kubernetes' 409 Conflict with one
     * FieldManagerConflict cause per field.
     */
    public static ApiError applyConflict(String message, List<Cause> causes) {
        return new ApiError(409, "Conflict", message, null, null, null, causes);
    }

    /** A create of a name that exists, Kubernetes' AlreadyExists. */
    public static ApiError alreadyExists(String message) {
        return new ApiError(409, "AlreadyExists", message);
    }

    /** Well formed but not applicable here, such as a JSON patch whose test fails: Kubernetes' 422 Invalid. */
    public static ApiError unprocessable(String message) {
        return new ApiError(422, "Invalid", message);
    }

    /** A spec that breaks the kind's validation rules; the message lists every failure. */
    public static ApiError validationFailed(String message) {
        return new ApiError(422, "ValidationFailed", message);
    }

    public static ApiError gone(String message) {
        return new ApiError(410, "Gone", message);
    }

    public static ApiError tooLarge(String message) {
        return new ApiError(413, "RequestEntityTooLarge", message);
    }

    public static ApiError unsupportedMediaType(String message) {
        return new ApiError(415, "UnsupportedMediaType", message);
    }

    /** Stores are migrating or not yet queryable: the client should retry after the given delay. */
    public static ApiError unavailable(String message, int retryAfterSeconds) {
        return new ApiError(503, "ServiceUnavailable", message, null, retryAfterSeconds);
    }

    /** A bound on what one client or the instance holds open was reached: retry after the given delay. */
    public static ApiError tooManyRequests(String message, int retryAfterSeconds) {
        return new ApiError(429, "TooManyRequests", message, null, retryAfterSeconds);
    }

    public static ApiError timeout(String message) {
        return new ApiError(504, "Timeout", message);
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    /** For a 409: the current resourceVersion (empty when the resource does not exist); otherwise null. */
    public String resourceVersion() {
        return resourceVersion;
    }

    /** For a 503 or 429: seconds for the Retry-After header; otherwise null. */
    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** This error about {@code subject}. */
    public ApiError about(Subject subject) {
        return new ApiError(code, reason, getMessage(), resourceVersion, retryAfterSeconds, errorId, causes, subject);
    }

    /** The object the error is about, or null when it is the one the request's path names. */
    public Subject subject() {
        return subject;
    }

    /** The causes field by field; empty for most errors. */
    public List<Cause> causes() {
        return causes;
    }

    /** The id of an unexpected failure ({@link #internal}), null for every other error. */
    public String errorId() {
        return errorId;
    }

    /** The JSON body. A conflict adds {@code resourceVersion} so that a client can retry without another read. */
    public Map<String, Object> body() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("code", code);
        out.put("reason", reason);
        out.put("message", getMessage() == null ? "" : getMessage());
        if (resourceVersion != null) {
            out.put("resourceVersion", resourceVersion);
        }
        if (errorId != null) {
            out.put("errorId", errorId);
        }
        if (!causes.isEmpty()) {
            List<Map<String, String>> list = new ArrayList<>();
            for (Cause c : causes) {
                Map<String, String> m = new LinkedHashMap<>();
                m.put("reason", c.reason());
                m.put("message", c.message());
                m.put("field", c.field());
                list.add(m);
            }
            out.put("causes", list);
        }
        return out;
    }
}
