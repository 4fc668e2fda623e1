package io.statesync.kube.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.topology.ApiOnlyKinds;

/**
 * Answers a read as the client asked: a {@code meta.k8s.io/v1 Table} when its Accept header asks for one (as kubectl
 * get does), so that it prints NAME, SYNC, HEALTH, GEN, OBSERVED and AGE, and with {@code -o wide} the reason of the
 * last correction; otherwise the object or the {@code <Kind>List}.
 */
final class Tables {

    private Tables() {
    }

    static void respond(Context ctx, KindCatalog.Served served, List<ObjectNode> objects, String listVersion, String next,
                        boolean single) {
        String accept = ctx.header("Accept");
        if (accept != null && accept.contains("as=Table")) {
            ctx.json(table(served, objects, single ? objects.get(0).path("metadata").path("resourceVersion").asText() : listVersion,
                next, ctx.queryParam("includeObject")));
        } else if (single) {
            ctx.json(ShownStatus.of(served, objects.get(0)));
        } else {
            ObjectNode list = KubeObjects.list(served, listVersion, next);
            objects.forEach(o -> ResourceHandlers.items(list).add(ShownStatus.of(served, o)));
            ctx.json(list);
        }
    }

    /**
     * A Table of {@code objects}: NAME, SYNC and HEALTH, then the served version's {@code additionalPrinterColumns}
     * of a kind a CustomResourceDefinition defines, then GEN, OBSERVED, AGE and, at priority 1, REASON.
     */
    static ObjectNode table(KindCatalog.Served served, List<ObjectNode> objects, String resourceVersion, String next,
                            String includeObject) {
        ObjectNode t = ResourceHandlers.MAPPER.createObjectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        ObjectNode meta = t.putObject("metadata").put("resourceVersion", resourceVersion);
        if (next != null) {
            meta.put("continue", next);
        }
        String include = includeObject == null ? "Metadata" : includeObject;
        if (ApiOnlyKinds.CUSTOM_RESOURCE_DEFINITION.equals(served.kind().kind())) {
            return createdAtTable(t, objects, include);
        }
        if (KindCatalog.NAMESPACE_KIND.equals(served.kind().kind())) {
            namespaceTable(t, objects, include);
            return t;
        }
        List<PrinterColumns.Column> printed = PrinterColumns.of(served);
        ArrayNode columns = t.putArray("columnDefinitions");
        column(columns, "Name", "string", "name", 0, "Name must be unique within a namespace.");
        column(columns, "Sync", "string", "", 0, "Whether observed state matches desired state (status.syncStatus).");
        column(columns, "Health", "string", "", 0, "The resource's health (status.health.status).");
        for (PrinterColumns.Column c : printed) {
            column(columns, c.name(), c.type(), c.format(), c.priority(), c.description());
        }
        column(columns, "Gen", "integer", "", 0, "The desired state's generation (metadata.generation).");
        column(columns, "Observed", "integer", "", 0, "The generation the agents last reported (status.observedGeneration).");
        column(columns, "Age", "string", "", 0, "Time since the object was created (metadata.creationTimestamp).");
        column(columns, "Reason", "string", "", 1, "Why the last correction was sent (status.lastCorrection.reason).");
        ArrayNode rows = t.putArray("rows");
        for (ObjectNode o : objects) {
            row(rows.addObject(), o, printed, include);
        }
        return t;
    }

    /**
     * The apiserver's default Table, NAME and CREATED AT, for the definitions: kubectl prints them so for
     * {@code get crd}, and statesync's sync columns say nothing about a kind that statesync itself acts on.
     */
    private static ObjectNode createdAtTable(ObjectNode t, List<ObjectNode> objects, String includeObject) {
        ArrayNode columns = t.putArray("columnDefinitions");
        column(columns, "Name", "string", "name", 0, "Name must be unique within a namespace.");
        column(columns, "Created At", "date", "", 0, "CreationTimestamp is a timestamp representing the server time "
            + "when this object was created.");
        ArrayNode rows = t.putArray("rows");
        for (ObjectNode o : objects) {
            ObjectNode row = rows.addObject();
            JsonNode meta = o.path("metadata");
            row.putArray("cells").add(meta.path("name").asText()).add(meta.path("creationTimestamp").asText(""));
            object(row, o, includeObject);
        }
        return t;
    }

    private static void column(ArrayNode columns, String name, String type, String format, int priority, String description) {
        columns.addObject().put("name", name).put("type", type).put("format", format).put("description", description)
            .put("priority", priority);
    }

    private static void row(ObjectNode row, ObjectNode o, List<PrinterColumns.Column> printed, String includeObject) {
        JsonNode meta = o.path("metadata");
        JsonNode status = o.path("status");
        ArrayNode cells = row.putArray("cells");
        cells.add(meta.path("name").asText());
        cells.add(status.path("syncStatus").asText(""));
        cells.add(status.path("health").path("status").asText(""));
        for (PrinterColumns.Column c : printed) {
            cells.add(c.cell(o));
        }
        cells.add(meta.path("generation").asLong());
        cells.add(status.path("observedGeneration").asLong());
        cells.add(age(meta.path("creationTimestamp").asText(null)));
        cells.add(status.path("lastCorrection").path("reason").asText("<none>"));
        object(row, o, includeObject);
    }

    /** Namespaces as Kubernetes prints them: NAME, STATUS (the phase) and AGE. */
    private static void namespaceTable(ObjectNode t, List<ObjectNode> objects, String includeObject) {
        ArrayNode columns = t.putArray("columnDefinitions");
        column(columns, "Name", "string", "name", 0, "Name must be unique within a namespace.");
        column(columns, "Status", "string", "", 0, "The status of the namespace (status.phase).");
        column(columns, "Age", "string", "", 0, "Time since the object was created (metadata.creationTimestamp).");
        ArrayNode rows = t.putArray("rows");
        for (ObjectNode o : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            cells.add(o.path("metadata").path("name").asText());
            cells.add(o.path("status").path("phase").asText(""));
            cells.add(age(o.path("metadata").path("creationTimestamp").asText(null)));
            object(row, o, includeObject);
        }
    }

    /** A row's object, as {@code includeObject} asks: the whole object, its metadata (the default) or none. */
    private static void object(ObjectNode row, ObjectNode o, String includeObject) {
        if (includeObject.equals("Object")) {
            row.set("object", o);
        } else if (!includeObject.equals("None")) {
            row.putObject("object").put("kind", "PartialObjectMetadata").put("apiVersion", "meta.k8s.io/v1")
                .set("metadata", o.path("metadata"));
        }
    }

    /** Kubernetes' short human duration: 45s, 5m10s, 12m, 3h20m, 20h, 4d5h, 30d, 2y. */
    static String age(String creationTimestamp) {
        if (creationTimestamp == null || creationTimestamp.isEmpty()) {
            return "<unknown>";
        }
        Duration d = Duration.between(Instant.parse(creationTimestamp), Instant.now());
        long s = Math.max(0, d.toSeconds());
        long m = s / 60;
        long h = m / 60;
        long days = h / 24;
        if (s < 120) {
            return s + "s";
        }
        if (m < 10) {
            return m + "m" + (s % 60 == 0 ? "" : s % 60 + "s");
        }
        if (h < 3) {
            return m + "m";
        }
        if (h < 8) {
            return h + "h" + (m % 60 == 0 ? "" : m % 60 + "m");
        }
        if (h < 48) {
            return h + "h";
        }
        return days < 8 ? days + "d" + (h % 24 == 0 ? "" : h % 24 + "h") : days < 730 ? days + "d" : days / 365 + "y";
    }
}
