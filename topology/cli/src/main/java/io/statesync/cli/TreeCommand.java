package io.statesync.cli;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.cli.internal.ApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code statesync tree KIND/NAMESPACE/NAME}: the resource and its dependents, recursively, with each node's sync
 * status and health. With {@code -o json|yaml} it prints the tree as nested {@code {kind, name, syncStatus, health,
 * dependents}} nodes.
 */
@Command(name = "tree", mixinStandardHelpOptions = true,
    description = "Show the ownership tree of a resource, named KIND/NAMESPACE/NAME, with sync and health per node.")
public final class TreeCommand extends ClientCommand {

    @Parameters(paramLabel = "KIND/NAMESPACE/NAME")
    String key;

    @Override
    int run(ApiClient api) throws IOException {
        ApiClient.Response root = api.get(ApiClient.resourcePath(key));
        if (!root.ok()) {
            return fail("tree " + key, root);
        }
        JsonNode r = root.json();
        JsonNode status = r.path("status");
        ObjectNode tree = node(r.path("kind").asText(), r.path("metadata").path("namespace").asText(),
            r.path("metadata").path("name").asText(), status.path("syncStatus").asText(),
            status.path("health").path("status").asText());
        Set<String> seen = new HashSet<>();
        seen.add(key);
        String failed = grow(api, tree, seen);
        if (failed != null) {
            return fail("tree " + failed, api.get(ApiClient.resourcePath(failed) + "/dependents"));
        }
        return print(tree, t -> print(t, "", "", true));
    }

    /** Adds each node's dependents below it; returns the key whose dependents could not be read, or null. */
    private static String grow(ApiClient api, ObjectNode node, Set<String> seen) throws IOException {
        String key = node.path("kind").asText() + "/" + node.path("namespace").asText() + "/" + node.path("name").asText();
        ApiClient.Response deps = api.get(ApiClient.resourcePath(key) + "/dependents");
        if (!deps.ok()) {
            return key;
        }
        var children = node.putArray("dependents");
        for (JsonNode d : deps.json().path("items")) {
            ObjectNode child = node(d.path("kind").asText(), d.path("namespace").asText(), d.path("name").asText(),
                d.path("syncStatus").asText(), d.path("health").path("status").asText());
            children.add(child);
            // An ownership cycle is possible (references are not checked for one); each node is shown once.
            if (seen.add(d.path("kind").asText() + "/" + d.path("namespace").asText() + "/" + d.path("name").asText())) {
                String failed = grow(api, child, seen);
                if (failed != null) {
                    return failed;
                }
            }
        }
        return null;
    }

    private static ObjectNode node(String kind, String namespace, String name, String sync, String health) {
        return JsonNodeFactory.instance.objectNode().put("kind", kind).put("namespace", namespace).put("name", name)
            .put("syncStatus", sync).put("health", health);
    }

    private void print(JsonNode node, String prefix, String childPrefix, boolean root) {
        out().println(prefix + node.path("kind").asText() + "/" + node.path("namespace").asText() + "/"
            + node.path("name").asText() + "  " + node.path("syncStatus").asText() + "  " + node.path("health").asText());
        JsonNode children = node.path("dependents");
        for (int i = 0; i < children.size(); i++) {
            boolean last = i == children.size() - 1;
            print(children.get(i), childPrefix + (last ? "└── " : "├── "), childPrefix + (last ? "    " : "│   "), false);
        }
        if (root) {
            out().flush();
        }
    }
}
