package io.statesync.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.statesync.cli.internal.ApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code statesync apply -f file}: creates or replaces every resource document of a YAML or JSON file (YAML may
 * hold many documents separated by {@code ---}; JSON may be one object or an array). Each document is PUT on its
 * own; a conflict on any gives exit code 3, another failure 1. Bulk applies show a progress bar on stderr.
 */
@Command(name = "apply", mixinStandardHelpOptions = true, description = "Create or replace resources from a YAML or JSON file.")
public final class ApplyCommand extends ClientCommand {

    /**
     * Built on first use: picocli creates every command to parse any command line, {@code run} included, and a YAML
     * mapper built there put Jackson's classes on the way of every start.
     */
    private static final class Yaml {
        static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory());
    }
    private static final int BAR = 30;

    @Option(names = {"-f", "--filename"}, required = true, description = "YAML or JSON file; - reads standard input.")
    String file;

    @Option(names = "--no-progress", description = "Do not draw the progress bar; print one line per document instead.")
    boolean noProgress;

    private boolean bulk;

    @Override
    int run(ApiClient api) throws IOException {
        List<JsonNode> docs = documents(file);
        int conflicts = 0;
        int failures = 0;
        for (int i = 0; i < docs.size(); i++) {
            int code = applyOne(api, docs.get(i));
            conflicts += code == StatesyncCli.EXIT_CONFLICT ? 1 : 0;
            failures += code == StatesyncCli.EXIT_ERROR ? 1 : 0;
            progress(i + 1, docs.size());
        }
        if (docs.size() > 1) {
            out().println(docs.size() + " documents: " + (docs.size() - conflicts - failures) + " applied, "
                + conflicts + " conflicts, " + failures + " failed");
            out().flush();
        }
        return failures > 0 ? StatesyncCli.EXIT_ERROR : conflicts > 0 ? StatesyncCli.EXIT_CONFLICT : StatesyncCli.EXIT_OK;
    }

    private int applyOne(ApiClient api, JsonNode doc) throws IOException {
        if (!doc.isObject() || !doc.hasNonNull("kind") || !doc.path("metadata").hasNonNull("name")) {
            err().println("error: a document needs kind and metadata.name: " + abbreviate(doc.toString()));
            err().flush();
            return StatesyncCli.EXIT_ERROR;
        }
        String ns = doc.path("metadata").path("namespace").asText("default");
        ((ObjectNode) doc.get("metadata")).put("namespace", ns);
        String key = doc.get("kind").asText() + "/" + ns + "/" + doc.path("metadata").path("name").asText();
        ApiClient.Response r = api.put(ApiClient.resourcePath(key), doc);
        if (!r.ok()) {
            return fail("apply " + key, r);
        }
        if (noProgress || !bulk) {
            out().println(key + " " + verb(r));
            out().flush();
        }
        return StatesyncCli.EXIT_OK;
    }

    private static String verb(ApiClient.Response r) {
        if (r.status() == 201) {
            return "created";
        }
        return "configured";
    }

    /** Every document of a YAML file or a JSON object/array; JSON is YAML, so one parser reads both. */
    List<JsonNode> documents(String name) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (InputStream in = name.equals("-") ? System.in : Files.newInputStream(Path.of(name));
             MappingIterator<JsonNode> it = Yaml.MAPPER.readerFor(JsonNode.class).readValues(in)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc == null || doc.isNull() || doc.isMissingNode()) {
                    continue;
                }
                if (doc.isArray()) {
                    doc.forEach(out::add);
                } else {
                    out.add(doc);
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(name + " is not valid YAML or JSON: " + e.getOriginalMessage());
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("no such file: " + name);
        }
        bulk = out.size() > 1;
        return out;
    }

    private void progress(int done, int total) {
        if (!bulk || noProgress) {
            return;
        }
        int filled = (int) ((long) BAR * done / total);
        err().print("\r[" + "#".repeat(filled) + " ".repeat(BAR - filled) + "] " + done + "/" + total);
        if (done == total) {
            err().println();
        }
        err().flush();
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
