package io.statesync.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.cli.internal.ApiClient;
import io.statesync.cli.internal.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code statesync kinds get [KIND]} and {@code statesync kinds apply -f file}: kind policies. */
@Command(name = "kinds", mixinStandardHelpOptions = true, description = "Kind policies.",
    subcommands = {KindsCommand.Get.class, KindsCommand.Apply.class})
public final class KindsCommand implements java.util.concurrent.Callable<Integer> {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return StatesyncCli.EXIT_USAGE;
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Show one kind policy, or all of them.")
    static final class Get extends ClientCommand {
        @Parameters(paramLabel = "KIND", arity = "0..1")
        String kind;

        @Override
        int run(ApiClient api) throws IOException {
            ApiClient.Response r = api.get(kind == null ? "/api/v1/kinds" : "/api/v1/kinds/" + kind);
            if (!r.ok()) {
                return fail("kinds get", r);
            }
            if (output != Format.table) {
                Output.print(out(), r.json(), format());
                return StatesyncCli.EXIT_OK;
            }
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode p : kind == null ? r.json().path("items") : List.of(r.json())) {
                rows.add(List.of(p.path("kind").asText(), p.path("orphanPolicy").asText(), p.path("maxAttempts").asText("-"),
                    p.path("strict").asText(), p.path("ignoredFields").toString()));
            }
            Output.table(out(), List.of("KIND", "ORPHANS", "MAX-ATTEMPTS", "STRICT", "IGNORED"), rows);
            return StatesyncCli.EXIT_OK;
        }
    }

    /** Reads policies as documents with a kind field, or one map from kind to policy (the seed-file form). */
    @Command(name = "apply", mixinStandardHelpOptions = true, description = "Create or replace kind policies from YAML or JSON.")
    static final class Apply extends ClientCommand {
        @Option(names = {"-f", "--filename"}, required = true, description = "YAML or JSON file; - reads standard input.")
        String file;

        @Override
        int run(ApiClient api) throws IOException {
            List<JsonNode> policies = new ArrayList<>();
            for (JsonNode doc : new ApplyCommand().documents(file)) {
                if (doc.has("kind")) {
                    policies.add(doc);
                } else {
                    doc.properties().forEach(e -> policies.add(((ObjectNode) e.getValue()).put("kind", e.getKey())));
                }
            }
            int code = StatesyncCli.EXIT_OK;
            for (JsonNode p : policies) {
                String kind = p.path("kind").asText();
                ApiClient.Response r = api.put("/api/v1/kinds/" + kind, p);
                if (!r.ok()) {
                    code = Math.max(code, fail("kinds apply " + kind, r));
                } else {
                    out().println("kind " + kind + " configured");
                }
            }
            out().flush();
            return code;
        }
    }
}
