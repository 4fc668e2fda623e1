package io.statesync.rest.internal;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI 3 description served at {@code /openapi.json}. It is written by hand, next to nothing else, and a
 * test compares its operations with the routes Javalin actually registered, so neither can drift.
 */
public final class OpenApiDocument {

    /** One documented operation; {@code responses} lists status codes other than the 401/403 of the security scheme. */
    public record Operation(String method, String path, String summary, boolean write, List<Integer> responses) {
    }

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern PATH_PARAM = Pattern.compile("\\{([a-zA-Z]+)}");
    private static final String RES = "/api/v1/resources/{kind}/{namespace}/{name}";

    public static final List<Operation> OPERATIONS = List.of(
        new Operation("GET", "/healthz", "Liveness, as /livez.", false, List.of(200, 503)),
        new Operation("GET", "/livez", "Liveness: 503 only when a restart would help (a background loop stopped, or failing"
            + " for longer than loop.liveness.ms). Also served on probe.port.", false, List.of(200, 503)),
        new Operation("GET", "/readyz", "Readiness: streams RUNNING, stores queryable, reply consumer assigned, every background"
            + " loop running; the body names each loop's phase. Also served on probe.port.", false, List.of(200, 503)),
        new Operation("GET", "/metrics", "Prometheus metrics.", false, List.of(200)),
        new Operation("GET", "/openapi.json", "This document.", false, List.of(200)),
        new Operation("GET", "/api/v1/resources", "List resources (kind, namespace, labelSelector, syncStatus, health, limit, continue); "
            + "metadata.resourceVersion is a watch position.", false, List.of(200, 400, 503)),
        new Operation("GET", RES, "Read one resource; ETag is its resourceVersion. ?resourceVersion=X or If-None-Match: \"X\" "
            + "(304 while X is current) never returns an older version; ?consistency=owner reflects every write committed before the read.", false,
            List.of(200, 304, 400, 404, 503)),
        new Operation("PUT", RES, "Create or replace through admission; the body is JSON (application/json) or YAML "
            + "(application/yaml, application/x-yaml); metadata.resourceVersion or If-Match makes it conditional, "
            + "If-None-Match: * makes it create-only (409 AlreadyExists); 422 ValidationFailed when the spec breaks the "
            + "kind's validation rules; ?dryRun=All writes nothing; ?waitFor=Synced|Healthy (&timeoutSeconds=) answers once the written generation converged, or 202 with X-Statesync-Wait: Timeout.",
            true, List.of(200, 201, 202, 400, 409, 413, 415, 422, 429, 503, 504)),
        new Operation("POST", "/api/v1/resources/{kind}/{namespace}", "Create only, with the name in metadata.name, "
            + "from JSON or YAML as PUT: 409 AlreadyExists when it exists; 422 ValidationFailed when the spec breaks the "
            + "kind's validation rules; ?dryRun=All writes nothing; ?waitFor=Synced|Healthy (&timeoutSeconds=) answers once the written generation converged, or 202 with X-Statesync-Wait: Timeout.", true,
            List.of(201, 202, 400, 409, 413, 415, 422, 429, 503, 504)),
        new Operation("PATCH", RES, "Patch applied by admission to the stored object: JSON merge patch "
            + "(application/merge-patch+json) or JSON patch (application/json-patch+json) of spec and metadata labels, "
            + "annotations, finalizers, ownerReferences. Without If-Match (or a merge patch's metadata.resourceVersion) it never conflicts; "
            + "422 when a JSON patch does not apply or the result breaks the kind's validation rules; ?dryRun=All writes nothing;"
            + " ?waitFor=Synced|Healthy (&timeoutSeconds=) answers once the written generation converged, or 202 with X-Statesync-Wait: Timeout.", true, List.of(200, 202, 400, 404, 409, 413, 415, 422, 429, 503, 504)),
        new Operation("DELETE", RES, "Delete through admission; If-Match or ?resourceVersion= makes it conditional; "
            + "?propagationPolicy=Background|Foreground|Orphan (or a DeleteOptions body's propagationPolicy) says what "
            + "happens to the dependents, 422 for another value; ?dryRun=All writes nothing.",
            true, List.of(200, 400, 404, 409, 422, 503, 504)),
        new Operation("POST", "/api/v1/bulk", "Many writes in one request: {kind: BulkWrite, items: [{op: put|create|patch|delete, "
            + "object, patch, patchType: merge|json}]}, at most bulk.max.items. Each item has its own precondition "
            + "(object.metadata.resourceVersion) and its own result {index, key, code, reason, object | error}; partial "
            + "success is normal. ?dryRun=All writes nothing.", true, List.of(200, 400, 413, 415, 503)),
        new Operation("PUT", RES + "/status", "Replace the status the resource's controller or agent reports: an "
            + "observation, never a change of spec, metadata or generation. statesync's own fields and condition types "
            + "are dropped with a Warning header; If-Match or metadata.resourceVersion is the precondition (409); 404 "
            + "when the resource does not exist; 413 when the status is over spec.max.bytes.",
            true, List.of(200, 400, 404, 409, 413, 415, 422, 503, 504)),
        new Operation("PATCH", RES + "/status", "Patch the reported status: a JSON merge patch or JSON patch applies to "
            + "the object as shown and its status is taken; an applied configuration's status (application/apply-patch+yaml) "
            + "merges into it, its reporter the fieldManager. Answered as PUT .../status.",
            true, List.of(200, 400, 404, 409, 413, 415, 422, 503, 504)),
        new Operation("GET", RES + "/diff", "Field diffs between desired spec and observed state, the last correction's "
            + "patch, and the observed state last reported.", false, List.of(200, 400, 404, 503)),
        new Operation("GET", RES + "/diagnosis", "Sync status, health, generation lag, unhealthy conditions, stuck corrections and hints.", false,
            List.of(200, 400, 404, 503)),
        new Operation("GET", RES + "/dependents", "The resources in the namespace whose metadata.ownerReferences name this "
            + "one, with their reference, sync status and health.", false, List.of(200, 400, 503)),
        new Operation("GET", RES + "/events", "The resource's events, newest first, repeats aggregated with count, "
            + "firstTimestamp and lastTimestamp (events.max.per.resource, events.max.age.ms).", false, List.of(200, 400, 503)),
        new Operation("GET", "/api/v1/watch", "Server-Sent Events (filters as the list's: kind, namespace, labelSelector, syncStatus, health): ADDED, MODIFIED, "
            + "DELETED, BOOKMARK from resourceVersion "
            + "or the Last-Event-ID header (a list's position or an event id; 400 when both are sent and differ); every id "
            + "resumes just after its event; 410 when that position is too old or not a position.", false, List.of(200, 400, 410, 503)),
        new Operation("GET", "/api/v1/kinds", "List kind policies.", false, List.of(200)),
        new Operation("GET", "/api/v1/kinds/{kind}", "Read one kind policy.", false, List.of(200, 400, 404)),
        new Operation("PUT", "/api/v1/kinds/{kind}", "Create or replace a kind policy, as JSON or YAML; 400 with CEL's "
            + "error when a health or validation rule does not compile.", true, List.of(200, 400, 413, 415, 504)),
        new Operation("GET", "/api/v1/whoami", "The caller's role (reader or writer) and whether tokens are required.", false,
            List.of(200)),
        new Operation("GET", "/", "The web UI's page (HTML, no token needed); 404 when the UI is not on the class path.", false,
            List.of(200, 404)),
        new Operation("GET", "/ui/", "The web UI's page, as / (also at /ui).", false, List.of(200, 404)),
        new Operation("GET", "/ui/{file}", "One of the web UI's static files (modules, style sheet, images).", false,
            List.of(200, 404)));

    private OpenApiDocument() {
    }

    public static ObjectNode build() {
        ObjectNode doc = JSON.objectNode().put("openapi", "3.0.3");
        doc.putObject("info").put("title", "statesync").put("version", "v1")
            .put("description", "Kubernetes-style state reconciliation on Apache Kafka. Errors are {code, reason, message}.");
        doc.putObject("components").putObject("securitySchemes").putObject("bearer").put("type", "http").put("scheme", "bearer");
        ObjectNode paths = doc.putObject("paths");
        for (Operation op : OPERATIONS) {
            ObjectNode item = paths.has(op.path()) ? (ObjectNode) paths.get(op.path()) : paths.putObject(op.path());
            item.set(op.method().toLowerCase(Locale.ROOT), operation(op));
        }
        return doc;
    }

    private static ObjectNode operation(Operation op) {
        ObjectNode n = JSON.objectNode().put("summary", op.summary())
            .put("operationId", op.method().toLowerCase(Locale.ROOT) + op.path().replaceAll("[^A-Za-z0-9]+", "_"));
        ArrayNode params = n.putArray("parameters");
        Matcher m = PATH_PARAM.matcher(op.path());
        while (m.find()) {
            params.addObject().put("name", m.group(1)).put("in", "path").put("required", true)
                .putObject("schema").put("type", "string");
        }
        n.putArray("security").addObject().putArray("bearer").add(op.write() ? "writer" : "reader");
        ObjectNode responses = n.putObject("responses");
        for (int code : op.responses()) {
            responses.putObject(String.valueOf(code)).put("description", describe(code));
        }
        return n;
    }

    private static String describe(int code) {
        return switch (code) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 304 -> "Not Modified: the If-None-Match version is current";
            case 400 -> "Bad JSON or YAML (the message names the line), a bad field or a bad parameter";
            case 404 -> "No such resource";
            case 409 -> "resourceVersion precondition failed (the body carries the current one), or AlreadyExists";
            case 410 -> "The position is too old; list again";
            case 413 -> "Body larger than http.max.body.bytes, or a written status larger than spec.max.bytes";
            case 415 -> "Wrong Content-Type";
            case 422 -> "The patch does not apply to the stored object (a failing test, a missing path)";
            case 503 -> "Not ready or stores migrating; see Retry-After";
            case 504 -> "No admission answer in time; the write may still apply";
            default -> "See message";
        };
    }
}
