package io.statesync.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.cli.internal.ApiClient;
import io.statesync.cli.internal.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code statesync describe KIND/NAMESPACE/NAME}: metadata, sync, health, conditions, the last correction and the
 * events of one resource, in the spirit of {@code kubectl describe}. With {@code -o json|yaml} it prints the resource
 * and its events as one document.
 */
@Command(name = "describe", mixinStandardHelpOptions = true,
    description = "Show a resource's metadata, status, last correction and events, named KIND/NAMESPACE/NAME.")
public final class DescribeCommand extends ClientCommand {

    @Parameters(paramLabel = "KIND/NAMESPACE/NAME")
    String key;

    @Override
    int run(ApiClient api) throws IOException {
        ApiClient.Response resource = api.get(ApiClient.resourcePath(key));
        if (!resource.ok()) {
            return fail("describe " + key, resource);
        }
        ApiClient.Response events = api.get(ApiClient.resourcePath(key) + "/events");
        if (!events.ok()) {
            return fail("describe " + key + " (events)", events);
        }
        ApiClient.Response dependents = api.get(ApiClient.resourcePath(key) + "/dependents");
        if (!dependents.ok()) {
            return fail("describe " + key + " (dependents)", dependents);
        }
        ObjectNode both = JsonNodeFactory.instance.objectNode();
        both.set("resource", resource.json());
        both.set("events", events.json().path("items"));
        both.set("dependents", dependents.json().path("items"));
        return print(both, b -> describe(b.get("resource"), b.get("events"), b.get("dependents")));
    }

    private void describe(JsonNode r, JsonNode events, JsonNode dependents) {
        JsonNode m = r.path("metadata");
        JsonNode s = r.path("status");
        line("Name", m.path("name").asText());
        line("Namespace", m.path("namespace").asText());
        line("Kind", r.path("kind").asText());
        line("UID", m.path("uid").asText());
        line("Resource Version", m.path("resourceVersion").asText());
        line("Generation", m.path("generation").asText() + " (observed " + s.path("observedGeneration").asText() + ")");
        line("Labels", pairs(m.path("labels")));
        line("Annotations", pairs(m.path("annotations")));
        line("Finalizers", m.path("finalizers").isEmpty() ? "<none>" : m.path("finalizers").toString());
        line("Controlled By", controller(m.path("ownerReferences")));
        line("Created", m.path("creationTimestamp").asText());
        if (m.hasNonNull("deletionTimestamp")) {
            line("Deleting since", m.path("deletionTimestamp").asText());
        }
        line("Sync", s.path("syncStatus").asText());
        if (s.path("health").isObject()) {
            JsonNode h = s.path("health");
            line("Health", h.path("status").asText() + (h.path("message").asText().isEmpty() ? "" : ": " + h.path("message").asText()));
        }
        section("Owners", List.of("KIND", "NAME", "UID", "CONTROLLER", "BLOCKS DELETION"), owners(m.path("ownerReferences")));
        section("Dependents", List.of("KIND", "NAME", "SYNC", "HEALTH", "CONTROLLER"), dependents(dependents));
        section("Conditions", List.of("TYPE", "STATUS", "REASON", "MESSAGE"), conditions(s.path("conditions")));
        lastCorrection(s.path("lastCorrection"));
        section("Events", List.of("LAST SEEN", "TYPE", "REASON", "COUNT", "MESSAGE"), events(events));
        out().flush();
    }

    private void line(String label, String value) {
        out().printf("%-18s%s%n", label + ":", value);
    }

    private void section(String title, List<String> header, List<List<String>> rows) {
        out().println(title + ":" + (rows.isEmpty() ? " <none>" : ""));
        if (!rows.isEmpty()) {
            StringWriter table = new StringWriter();
            Output.table(new PrintWriter(table), header, rows);
            table.toString().lines().forEach(l -> out().println("  " + l));
        }
    }

    private void lastCorrection(JsonNode c) {
        if (c.isMissingNode() || c.isNull()) {
            line("Last Correction", "<none>");
            return;
        }
        line("Last Correction", c.path("action").asText() + " (" + c.path("reason").asText() + "), generation "
            + c.path("generation").asText() + ", attempt " + c.path("attempt").asText() + ", command " + c.path("commandId").asText());
    }

    /** As kubectl: the controller owner's {@code Kind/name}. */
    private static String controller(JsonNode refs) {
        for (JsonNode ref : refs) {
            if (ref.path("controller").asBoolean()) {
                return ref.path("kind").asText() + "/" + ref.path("name").asText();
            }
        }
        return "<none>";
    }

    private static List<List<String>> owners(JsonNode refs) {
        List<List<String>> rows = new ArrayList<>();
        refs.forEach(r -> rows.add(List.of(r.path("kind").asText(), r.path("name").asText(), r.path("uid").asText(),
            r.path("controller").asText(), r.path("blockOwnerDeletion").asText())));
        return rows;
    }

    private static List<List<String>> dependents(JsonNode items) {
        List<List<String>> rows = new ArrayList<>();
        items.forEach(d -> rows.add(List.of(d.path("kind").asText(), d.path("name").asText(), d.path("syncStatus").asText(),
            d.path("health").path("status").asText(), d.path("controller").asText())));
        return rows;
    }

    private static List<List<String>> conditions(JsonNode conditions) {
        List<List<String>> rows = new ArrayList<>();
        conditions.forEach(c -> rows.add(List.of(c.path("type").asText(), c.path("status").asText(),
            c.path("reason").asText(), c.path("message").asText())));
        return rows;
    }

    private static List<List<String>> events(JsonNode events) {
        List<List<String>> rows = new ArrayList<>();
        Instant now = Instant.now();
        events.forEach(e -> rows.add(List.of(age(e.path("lastTimestamp").asText(), now), e.path("type").asText(),
            e.path("reason").asText(), e.path("count").asText(), e.path("message").asText())));
        return rows;
    }

    /** Like kubectl's ages: 45s, 12m, 3h, 2d. */
    static String age(String timestamp, Instant now) {
        try {
            Duration d = Duration.between(Instant.parse(timestamp), now);
            long s = Math.max(0, d.getSeconds());
            return s < 120 ? s + "s" : s < 7_200 ? s / 60 + "m" : s < 172_800 ? s / 3_600 + "h" : s / 86_400 + "d";
        } catch (DateTimeParseException e) {
            return timestamp;
        }
    }

    private static String pairs(JsonNode map) {
        if (!map.isObject() || map.isEmpty()) {
            return "<none>";
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : map.properties()) {
            out.add(e.getKey() + "=" + e.getValue().asText());
        }
        return String.join(", ", out);
    }
}
