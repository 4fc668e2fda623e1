package io.statesync.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.cli.internal.ApiClient;
import io.statesync.cli.internal.Output;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every client command shares ({@code --server}, {@code --token}, {@code -o}) and the exit-code
 * convention: 0 ok, 1 error, 2 usage (picocli), 3 conflict.
 */
abstract class ClientCommand implements Callable<Integer> {

    enum Format { table, json, yaml }

    @Mixin
    ServerOptions target;

    @Option(names = {"-o", "--output"}, defaultValue = "table", description = "Output: table, json or yaml.")
    Format output;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() {
        try {
            return run(new ApiClient(target.server, target.token));
        } catch (IOException e) {
            err().println("error: cannot reach " + target.server + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            err().flush();
            return StatesyncCli.EXIT_ERROR;
        } catch (IllegalArgumentException e) {
            err().println("error: " + e.getMessage());
            err().flush();
            return StatesyncCli.EXIT_USAGE;
        }
    }

    abstract int run(ApiClient api) throws IOException;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** Reports a failed answer and gives its exit code: 3 for a conflict, 1 otherwise. */
    int fail(String what, ApiClient.Response r) {
        err().println("error: " + what + ": " + r.error());
        err().flush();
        return r.status() == 409 ? StatesyncCli.EXIT_CONFLICT : StatesyncCli.EXIT_ERROR;
    }

    String format() {
        return output.name();
    }

    /** Prints an answer: JSON or YAML as it is, or through {@code table} for the table format. */
    int print(JsonNode answer, Consumer<JsonNode> table) {
        if (output == Format.table) {
            table.accept(answer);
            out().flush();
        } else {
            Output.print(out(), answer, format());
        }
        return StatesyncCli.EXIT_OK;
    }
}
