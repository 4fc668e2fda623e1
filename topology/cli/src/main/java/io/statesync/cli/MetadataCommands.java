package io.statesync.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.cli.internal.ApiClient;
import io.statesync.cli.internal.ConflictRetry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code statesync label} and {@code statesync annotate}, as kubectl's: {@code KEY=VALUE} sets, {@code KEY-}
 * removes, and a key that has another value is changed only with {@code --overwrite}. The edit is a read-modify-write
 * conditional on the version read, repeated on the newer object when another write comes first
 * ({@link ApiClient#update}), so it never undoes someone else's change; it still answers 3 when every retry lost.
 */
final class MetadataCommands {

    private MetadataCommands() {
    }

    @Command(name = "label", mixinStandardHelpOptions = true,
        description = "Set (KEY=VALUE) or remove (KEY-) labels of a resource.")
    static final class Label extends Edit {
        Label() {
            super("labels", "labeled");
        }
    }

    @Command(name = "annotate", mixinStandardHelpOptions = true,
        description = "Set (KEY=VALUE) or remove (KEY-) annotations of a resource.")
    static final class Annotate extends Edit {
        Annotate() {
            super("annotations", "annotated");
        }
    }

    /** Refuses to change a key's value without --overwrite; thrown from inside the change, ends the command. */
    private static final class RefusedOverwrite extends RuntimeException {
        RefusedOverwrite(String message) {
            super(message, null, false, false);
        }
    }

    abstract static class Edit extends ClientCommand {
        @Parameters(index = "0", paramLabel = "KIND/NAMESPACE/NAME")
        String key;

        @Parameters(index = "1..*", arity = "1..*", paramLabel = "KEY=VALUE|KEY-", description = "What to set or remove.")
        List<String> edits;

        @Option(names = "--overwrite", description = "Change a key that already has another value.")
        boolean overwrite;

        private final String field;
        private final String done;

        Edit(String field, String done) {
            this.field = field;
            this.done = done;
        }

        @Override
        int run(ApiClient api) throws IOException {
            Map<String, String> set = new LinkedHashMap<>();
            List<String> remove = new ArrayList<>();
            parse(set, remove);
            AtomicBoolean changed = new AtomicBoolean();
            ApiClient.Response r;
            try {
                r = api.update(ApiClient.resourcePath(key), ConflictRetry.Backoff.DEFAULT_RETRY, o -> {
                    ObjectNode before = o.deepCopy();
                    ObjectNode edited = edit(o, set, remove);
                    changed.set(!edited.equals(before));
                    return edited;
                });
            } catch (RefusedOverwrite e) {
                err().println("error: " + e.getMessage());
                err().flush();
                return StatesyncCli.EXIT_ERROR;
            }
            if (!r.ok()) {
                return fail(spec.name() + " " + key, r);
            }
            return print(r.json(), answer -> out().println(key + (changed.get() ? " " : " not ") + done));
        }

        private void parse(Map<String, String> set, List<String> remove) {
            for (String e : edits) {
                int eq = e.indexOf('=');
                if (eq > 0) {
                    set.put(e.substring(0, eq), e.substring(eq + 1));
                } else if (e.endsWith("-") && e.length() > 1) {
                    remove.add(e.substring(0, e.length() - 1));
                } else {
                    throw new IllegalArgumentException("'" + e + "' is neither KEY=VALUE nor KEY-");
                }
            }
        }

        /** The object with the edits applied to its {@code metadata.<field>}. */
        private ObjectNode edit(ObjectNode o, Map<String, String> set, List<String> remove) {
            ObjectNode meta = o.withObject("/metadata");
            boolean had = meta.has(field);
            ObjectNode map = meta.withObject("/" + field);
            set.forEach((k, v) -> {
                JsonNode old = map.get(k);
                if (old != null && !old.asText().equals(v) && !overwrite) {
                    throw new RefusedOverwrite("'" + k + "' already has a value (" + old.asText()
                        + "), and --overwrite is false");
                }
                map.put(k, v);
            });
            remove.forEach(map::remove);
            if (!had && map.isEmpty()) {
                meta.remove(field);
            }
            return o;
        }
    }
}
