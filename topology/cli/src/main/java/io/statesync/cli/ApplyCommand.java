package io.statesync.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.statesync.cli.internal.ApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code statesync apply -f file}: creates or replaces every resource document of a YAML or JSON file (YAML may
 * hold many documents separated by {@code ---}; JSON may be one object or an array). Each document is applied on its
 * own, with its own result; the documents travel in chunks through {@code POST /api/v1/bulk}. A conflict on any
 * gives exit code 3, another failure 1. Applies of many documents show a progress bar on stderr.
 *
 * <p>With {@code --wait} each document is written on its own with {@code ?waitFor=Synced} (or {@code Healthy}) and
 * answered once its generation converged: a document still not converged when {@code --timeout} runs out gives exit
 * code 4, the writes being stored all the same.
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
    /** Under the server's default bulk.max.items and http.max.body.bytes, with room for the request's own fields. */
    private static final int CHUNK_ITEMS = 500;
    private static final long CHUNK_BYTES = 512 * 1024;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @Option(names = {"-f", "--filename"}, required = true, description = "YAML or JSON file; - reads standard input.")
    String file;

    @Option(names = "--no-progress", description = "Do not draw the progress bar; print one line per document instead.")
    boolean noProgress;

    @Option(names = "--dry-run", description = "Validate and admit on the server (?dryRun=All) and write nothing.")
    boolean dryRun;

    @Option(names = "--server-side", description = "Server-side apply: the file is this field manager's whole intent;"
        + " fields it applied before and leaves out are removed, and fields other managers own are conflicts.")
    boolean serverSide;

    @Option(names = "--force-conflicts", description = "With --server-side: take the fields other managers own.")
    boolean forceConflicts;

    @Option(names = "--field-manager", defaultValue = "statesync", description = "The manager the writes are recorded"
        + " under in metadata.managedFields (default: ${DEFAULT-VALUE}).")
    String fieldManager;

    @Option(names = "--wait", arity = "0..1", fallbackValue = "Synced", paramLabel = "CONDITION",
        description = "Answer once each written generation is Synced (the default) or Healthy, as agents report it;"
            + " exit code 4 when one is not by --timeout.")
    String waitFor;

    @Option(names = "--timeout", defaultValue = "60", paramLabel = "SECONDS", description = "With --wait: how long to"
        + " wait for all documents together, in seconds (default: ${DEFAULT-VALUE}); the server caps it at its"
        + " write.wait.max.timeout.seconds.")
    long timeoutSeconds;

    private boolean bulk;

    @Override
    int run(ApiClient api) throws IOException {
        List<JsonNode> docs = documents(file);
        Tally tally = new Tally();
        List<JsonNode> valid = new ArrayList<>();
        for (JsonNode doc : docs) {
            if (identify(doc) == null) {
                err().println("error: a document needs kind and metadata.name: " + abbreviate(doc.toString()));
                tally.failures++;
            } else {
                valid.add(doc);
            }
        }
        if (waitFor != null) {
            if (dryRun) {
                err().println("error: --wait cannot be combined with --dry-run: a dry run stores nothing to converge");
                return StatesyncCli.EXIT_USAGE;
            }
            return applyWaiting(api, valid, tally);
        }
        int done = tally.failures;
        for (List<JsonNode> chunk : chunks(valid)) {
            applyChunk(api, chunk, tally);
            done += chunk.size();
            progress(done, docs.size());
        }
        if (docs.size() > 1) {
            out().println(docs.size() + " documents: " + (docs.size() - tally.conflicts - tally.failures) + " applied, "
                + tally.conflicts + " conflicts, " + tally.failures + " failed");
        }
        out().flush();
        err().flush();
        return tally.failures > 0 ? StatesyncCli.EXIT_ERROR : tally.conflicts > 0 ? StatesyncCli.EXIT_CONFLICT : StatesyncCli.EXIT_OK;
    }

    private static final class Tally {
        int conflicts;
        int failures;
        int timeouts;
    }

    /**
     * {@code --wait}: each document written on its own and answered once converged, one after another under one
     * deadline, since a document that converges while an earlier one is awaited is answered at once.
     */
    private int applyWaiting(ApiClient api, List<JsonNode> docs, Tally tally) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutSeconds * 1000;
        for (JsonNode doc : docs) {
            long left = Math.max(0, (deadline - System.currentTimeMillis() + 999) / 1000);
            ApiClient.Response r = writeWaiting(api, doc, left);
            String key = identify(doc);
            if (r.status() == 202) {
                tally.timeouts++;
                err().println("timeout: " + key + " is stored but not " + waitFor + " after " + timeoutSeconds + "s (syncStatus "
                    + (r.json() == null ? "?" : r.json().path("status").path("syncStatus").asText("?")) + ")");
            } else if (r.ok()) {
                out().println(key + " " + (serverSide ? "serverside-applied" : r.status() == 201 ? "created" : "configured")
                    + ", " + waitFor);
            } else {
                fail("apply " + key, r);
                if (r.status() == 409) {
                    tally.conflicts++;
                } else {
                    tally.failures++;
                }
            }
        }
        out().flush();
        err().flush();
        return tally.failures > 0 ? StatesyncCli.EXIT_ERROR : tally.conflicts > 0 ? StatesyncCli.EXIT_CONFLICT
            : tally.timeouts > 0 ? StatesyncCli.EXIT_TIMEOUT : StatesyncCli.EXIT_OK;
    }

    /** One document's PUT, or server-side apply, that waits up to {@code seconds} for convergence. */
    private ApiClient.Response writeWaiting(ApiClient api, JsonNode doc, long seconds) throws IOException {
        String path = ApiClient.resourcePath(identify(doc));
        Map<String, String> params = new java.util.LinkedHashMap<>();
        params.put("waitFor", waitFor);
        params.put("timeoutSeconds", Long.toString(seconds));
        params.put("fieldManager", fieldManager);
        if (serverSide) {
            if (forceConflicts) {
                params.put("force", "true");
            }
            return api.send("PATCH", path + ApiClient.query(params), doc.toString(), "application/apply-patch+yaml",
                Map.of(), answerWithin(seconds));
        }
        return api.send("PUT", path + ApiClient.query(params), doc.toString(), "application/json", Map.of(),
            answerWithin(seconds));
    }

    /** The server answers at the timeout; the client gives it that long and a margin for the write itself. */
    private static java.time.Duration answerWithin(long seconds) {
        return java.time.Duration.ofSeconds(seconds + 60);
    }

    /** The document's key, with its namespace defaulted into it; null when it has no kind or name. */
    private static String identify(JsonNode doc) {
        if (!doc.isObject() || !doc.hasNonNull("kind") || !doc.path("metadata").hasNonNull("name")) {
            return null;
        }
        String ns = doc.path("metadata").path("namespace").asText("default");
        ((ObjectNode) doc.get("metadata")).put("namespace", ns);
        return doc.get("kind").asText() + "/" + ns + "/" + doc.path("metadata").path("name").asText();
    }

    /** Consecutive runs of documents that fit one bulk request by count and by size. */
    static List<List<JsonNode>> chunks(List<JsonNode> docs) {
        List<List<JsonNode>> out = new ArrayList<>();
        List<JsonNode> current = new ArrayList<>();
        long bytes = 0;
        for (JsonNode doc : docs) {
            long size = doc.toString().length() + 32L;
            if (!current.isEmpty() && (current.size() == CHUNK_ITEMS || bytes + size > CHUNK_BYTES)) {
                out.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(doc);
            bytes += size;
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    /** One bulk request; a chunk the server finds too large is split in two and sent again. */
    private void applyChunk(ApiClient api, List<JsonNode> chunk, Tally tally) throws IOException {
        ObjectNode body = JSON.objectNode().put("apiVersion", "statesync.io/v1").put("kind", "BulkWrite");
        ArrayNode items = body.putArray("items");
        chunk.forEach(doc -> items.addObject().put("op", serverSide ? "apply" : "put").set("object", doc));
        ApiClient.Response r = api.send("POST", bulkPath(), body.toString(), "application/json", Map.of());
        if (r.status() == 413 && chunk.size() > 1) {
            applyChunk(api, chunk.subList(0, chunk.size() / 2), tally);
            applyChunk(api, chunk.subList(chunk.size() / 2, chunk.size()), tally);
            return;
        }
        if (!r.ok() || r.json() == null || !r.json().path("items").isArray()) {
            for (JsonNode doc : chunk) {
                fail("apply " + identify(doc), r);
                tally.failures++;
            }
            return;
        }
        for (JsonNode result : r.json().get("items")) {
            report(result, tally);
        }
    }

    private String bulkPath() {
        StringBuilder q = new StringBuilder("/api/v1/bulk?fieldManager=")
            .append(java.net.URLEncoder.encode(fieldManager, java.nio.charset.StandardCharsets.UTF_8));
        if (dryRun) {
            q.append("&dryRun=All");
        }
        if (serverSide && forceConflicts) {
            q.append("&force=true");
        }
        return q.toString();
    }

    private void report(JsonNode result, Tally tally) {
        String key = result.path("key").asText();
        int code = result.path("code").asInt();
        if (code >= 200 && code < 300) {
            if (noProgress || !bulk) {
                out().println(key + " " + (serverSide ? "serverside-applied" : code == 201 ? "created" : "configured")
                    + (dryRun ? " (dry run)" : ""));
            }
            return;
        }
        JsonNode error = result.path("error");
        err().println("error: apply " + key + ": " + error.path("reason").asText() + ": " + error.path("message").asText());
        if (code == 409) {
            tally.conflicts++;
        } else {
            tally.failures++;
        }
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
