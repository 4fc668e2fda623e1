package io.statesync.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.cli.internal.ApiClient;
import io.statesync.cli.internal.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The read and delete commands: get, list, diff, diagnose, delete. */
final class ResourceCommands {

    private ResourceCommands() {
    }

    /** A request about one resource: send it, report a failure, print the answer as JSON/YAML or a table of its own. */
    abstract static class KeyedCommand extends ClientCommand {
        @Parameters(paramLabel = "KIND/NAMESPACE/NAME")
        String key;

        abstract ApiClient.Response send(ApiClient api) throws IOException;

        abstract void table(JsonNode answer);

        @Override
        int run(ApiClient api) throws IOException {
            ApiClient.Response r = send(api);
            return r.ok() ? print(r.json(), this::table) : fail(spec.name() + " " + key, r);
        }
    }

    /** A read of one resource's sub-path. */
    abstract static class KeyedRead extends KeyedCommand {
        abstract String suffix();

        @Override
        ApiClient.Response send(ApiClient api) throws IOException {
            return api.get(ApiClient.resourcePath(key) + suffix());
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Show one resource, named KIND/NAMESPACE/NAME.")
    static final class Get extends KeyedRead {
        @Override
        String suffix() {
            return "";
        }

        @Override
        void table(JsonNode r) {
            Output.table(out(), Output.RESOURCE_HEADER, List.of(Output.resourceRow(r)));
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List resources; follows every page.")
    static final class ListResources extends ClientCommand {
        @Mixin
        FilterOptions filters = new FilterOptions();
        @Option(names = "--page-size", defaultValue = "500", description = "Items per request (default ${DEFAULT-VALUE}).")
        int pageSize;

        @Override
        int run(ApiClient api) throws IOException {
            ArrayNode items = JsonNodeFactory.instance.arrayNode();
            String cont = null;
            String position = null;
            do {
                Map<String, String> q = filters.query();
                q.put("limit", String.valueOf(pageSize));
                q.put("continue", cont);
                ApiClient.Response r = api.get("/api/v1/resources" + ApiClient.query(q));
                if (!r.ok()) {
                    return fail("list", r);
                }
                r.json().path("items").forEach(items::add);
                position = position == null ? r.json().path("metadata").path("resourceVersion").asText() : position;
                cont = r.json().path("metadata").path("continue").asText(null);
            } while (cont != null && !cont.isEmpty());
            print(items, position);
            return StatesyncCli.EXIT_OK;
        }

        private void print(ArrayNode items, String position) {
            ObjectNode list = JsonNodeFactory.instance.objectNode().put("apiVersion", "statesync.io/v1").put("kind", "ResourceList");
            list.putObject("metadata").put("resourceVersion", position);
            list.set("items", items);
            print(list, answer -> {
                List<List<String>> rows = new ArrayList<>();
                items.forEach(i -> rows.add(Output.resourceRow(i)));
                Output.table(out(), Output.RESOURCE_HEADER, rows);
            });
        }
    }

    @Command(name = "diff", mixinStandardHelpOptions = true, description = "Show the field diffs of a resource.")
    static final class Diff extends KeyedRead {
        @Override
        String suffix() {
            return "/diff";
        }

        @Override
        void table(JsonNode answer) {
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode d : answer.path("items")) {
                rows.add(List.of(d.path("path").asText(), d.path("kind").asText(), d.path("desired").toString(),
                    d.path("observed").toString()));
            }
            out().println("syncStatus: " + answer.path("syncStatus").asText());
            Output.table(out(), List.of("PATH", "DIFF", "DESIRED", "OBSERVED"), rows);
        }
    }

    @Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = "Explain a resource's status: generation lag, unhealthy conditions, stuck corrections, hints.")
    static final class Diagnose extends KeyedRead {
        @Override
        String suffix() {
            return "/diagnosis";
        }

        @Override
        void table(JsonNode d) {
            out().println("syncStatus:     " + d.path("syncStatus").asText());
            JsonNode health = d.path("health");
            out().println("health:         " + health.path("status").asText("Unknown")
                + (health.path("message").asText("").isEmpty() ? "" : " (" + health.path("message").asText() + ")"));
            out().println("generationLag:  " + d.path("generationLag").asLong());
            d.path("conditions").forEach(c -> out().println("condition:      " + c.path("type").asText() + "="
                + c.path("status").asText() + " (" + c.path("reason").asText() + ") " + c.path("message").asText()));
            JsonNode s = d.path("stuckCorrection");
            if (s.isObject()) {
                out().println("stuck:          " + s.path("action").asText() + " " + s.path("commandId").asText()
                    + " attempt " + s.path("attempt").asInt() + ", overdue " + s.path("overdueBySeconds").asDouble() + "s");
            }
            d.path("hints").forEach(h -> out().println("hint:           " + h.asText()));
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a resource through admission.")
    static final class Delete extends KeyedCommand {
        @Option(names = "--resource-version", description = "Only delete this version (compare-and-swap).")
        String resourceVersion;

        @Option(names = "--cascade", defaultValue = "background", description = "What happens to the dependents, as "
            + "kubectl's --cascade: background (deleted after the resource goes), foreground (deleted first; the resource "
            + "waits for them) or orphan (they lose the reference and stay). Default ${DEFAULT-VALUE}.")
        Cascade cascade;

        enum Cascade { background, foreground, orphan }

        @Override
        ApiClient.Response send(ApiClient api) throws IOException {
            String policy = switch (cascade) {
                case background -> "Background";
                case foreground -> "Foreground";
                case orphan -> "Orphan";
            };
            return api.delete(ApiClient.resourcePath(key) + ApiClient.query(Map.of("propagationPolicy", policy)), resourceVersion);
        }

        @Override
        void table(JsonNode answer) {
            out().println(key + " " + answer.path("reason").asText("deleted").toLowerCase());
        }
    }
}
