package io.statesync.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.cli.internal.ApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code statesync watch}: follows the change stream. Table output prints one line per event; json prints each
 * event object on its own line. {@code --resource-version} resumes from a list position or an event's id.
 */
@Command(name = "watch", mixinStandardHelpOptions = true, description = "Stream ADDED, MODIFIED and DELETED events.")
public final class WatchCommand extends ClientCommand {

    @Mixin
    FilterOptions filters = new FilterOptions();
    @Option(names = "--resource-version", description = "Resume from this position (from list or a previous event).")
    String resourceVersion;
    @Option(names = "--timeout", description = "Stop after this many seconds.")
    Long timeoutSeconds;
    @Option(names = "--max-events", description = "Stop after this many change events.")
    Integer maxEvents;
    @Option(names = "--bookmarks", description = "Also print BOOKMARK events.")
    boolean bookmarks;

    @Override
    int run(ApiClient api) throws IOException {
        Map<String, String> q = filters.query();
        q.put("resourceVersion", resourceVersion);
        q.put("timeoutSeconds", timeoutSeconds == null ? null : String.valueOf(timeoutSeconds));
        HttpResponse<InputStream> resp = api.stream("/api/v1/watch" + ApiClient.query(q));
        try (BufferedReader in = new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8))) {
            if (resp.statusCode() != 200) {
                String body = in.lines().reduce("", String::concat);
                return fail("watch", new ApiClient.Response(resp.statusCode(), ApiClient.parse(body), body));
            }
            return follow(in);
        }
    }

    private int follow(BufferedReader in) throws IOException {
        int seen = 0;
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.startsWith("data: ")) {
                continue;
            }
            JsonNode event = ApiClient.parse(line.substring(6));
            if (event == null) {
                err().println("error: watch ended: the server sent an event that is not JSON: " + line);
                err().flush();
                return StatesyncCli.EXIT_ERROR;
            }
            String type = event.path("type").asText();
            if (type.equals("ERROR")) {
                err().println("error: watch ended: " + event.path("object").path("message").asText());
                err().flush();
                return StatesyncCli.EXIT_ERROR;
            }
            if (type.equals("BOOKMARK") && !bookmarks) {
                continue;
            }
            print(event);
            if (!type.equals("BOOKMARK") && maxEvents != null && ++seen >= maxEvents) {
                break;
            }
        }
        return StatesyncCli.EXIT_OK;
    }

    private void print(JsonNode event) {
        if (output != Format.table) {
            out().println(event.toString());
        } else {
            JsonNode o = event.path("object");
            JsonNode m = o.path("metadata");
            out().println(String.format("%-9s %s/%s/%s gen=%s sync=%s version=%s", event.path("type").asText(),
                o.path("kind").asText(), m.path("namespace").asText(), m.path("name").asText(), m.path("generation").asText(),
                o.path("status").path("syncStatus").asText("-"), m.path("resourceVersion").asText()));
        }
        out().flush();
    }
}
