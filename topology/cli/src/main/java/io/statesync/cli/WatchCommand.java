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
import io.statesync.cli.internal.SseReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code statesync watch}: follows the change stream. Table output prints one line per event; json prints each
 * event object on its own line. {@code --resource-version} resumes from a list position or an event's id.
 *
 * <p>A dropped connection is not the end of the watch: the command reconnects from the id of the last event it
 * received, which the server resumes exactly after, so the output has no gap and no duplicate. While the server
 * cannot be reached it retries with a growing wait. A position the server can no longer replay (410 Gone) is
 * answered as Kubernetes clients do: the watch starts again without a position, which sends every current object
 * as ADDED, and a line on stderr says so. Only the first connection fails at once, so that a wrong {@code --server}
 * is reported rather than retried. The watch ends at {@code --timeout}, after {@code --max-events}, or once its
 * output fails.
 */
@Command(name = "watch", mixinStandardHelpOptions = true, description = "Stream ADDED, MODIFIED and DELETED events.")
public final class WatchCommand extends ClientCommand {

    private static final long FIRST_RETRY_MS = 250;
    private static final long MAX_RETRY_MS = 5_000;

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

    /** How one connection ended. */
    private enum End { DONE, FAILED, GONE, DROPPED }

    private String lastId;
    private int seen;
    private long deadline;
    /** Whether the server has answered once: until then a failure to connect ends the command. */
    private boolean answered;
    /** Whether the latest connection was accepted; the next wait then starts short again. */
    private boolean accepted;

    @Override
    int run(ApiClient api) throws IOException {
        deadline = timeoutSeconds == null ? Long.MAX_VALUE : System.currentTimeMillis() + timeoutSeconds * 1000;
        lastId = resourceVersion;
        long retryMs = 0;
        while (System.currentTimeMillis() < deadline) {
            End end = attempt(api);
            if (end == End.DONE || end == End.FAILED) {
                return end == End.DONE ? StatesyncCli.EXIT_OK : StatesyncCli.EXIT_ERROR;
            }
            retryMs = end == End.GONE ? 0 : Math.min(MAX_RETRY_MS, Math.max(FIRST_RETRY_MS, accepted ? 0 : retryMs * 2));
            if (Thread.currentThread().isInterrupted() || !pause(retryMs)) {
                break;
            }
        }
        return StatesyncCli.EXIT_OK;
    }

    /** One connection, with a lost connection or an unreachable server (once it has answered) as DROPPED. */
    private End attempt(ApiClient api) throws IOException {
        accepted = false;
        try {
            return connect(api);
        } catch (IOException e) {
            if (Thread.currentThread().isInterrupted()) {
                // Stopping is asked for, not a failure.
                return End.DONE;
            }
            if (!answered) {
                throw e;
            }
            note("connection lost (" + describe(e) + ")");
            return End.DROPPED;
        }
    }

    /** One connection: opens the stream from the last id and follows it until it ends. */
    private End connect(ApiClient api) throws IOException {
        Map<String, String> q = filters.query();
        q.put("resourceVersion", lastId);
        if (deadline != Long.MAX_VALUE) {
            q.put("timeoutSeconds", String.valueOf(Math.max(1, (deadline - System.currentTimeMillis() + 999) / 1000)));
        }
        HttpResponse<InputStream> resp = api.stream("/api/v1/watch" + ApiClient.query(q));
        answered = true;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8))) {
            if (resp.statusCode() == 200) {
                accepted = true;
                return follow(new SseReader(in));
            }
            String body = in.lines().reduce("", String::concat);
            ApiClient.Response answer = new ApiClient.Response(resp.statusCode(), ApiClient.parse(body), body);
            if (resp.statusCode() == 410) {
                return relist(answer.json() == null ? answer.body() : answer.json().path("message").asText());
            }
            if (resp.statusCode() == 429 || resp.statusCode() >= 500) {
                note("the server answered " + answer.error());
                return End.DROPPED;
            }
            fail("watch", answer);
            return End.FAILED;
        }
    }

    /** Prints the stream's events until it ends; the id of each event it printed or skipped is where to resume. */
    private End follow(SseReader in) throws IOException {
        SseReader.Event e;
        while ((e = in.next()) != null) {
            JsonNode event = ApiClient.parse(e.data());
            if (event == null) {
                err().println("error: watch ended: the server sent an event that is not JSON: " + e.data());
                err().flush();
                return End.FAILED;
            }
            String type = event.path("type").asText();
            if (type.equals("ERROR")) {
                JsonNode error = event.path("object");
                if (error.path("code").asInt() == 410) {
                    return relist(error.path("message").asText());
                }
                note("the server ended the watch: " + error.path("message").asText());
                return End.DROPPED;
            }
            if ((bookmarks || !type.equals("BOOKMARK")) && !print(event)) {
                // Nobody takes the output any more, so there is no one to follow the stream for.
                return End.DONE;
            }
            lastId = e.id() == null ? lastId : e.id();
            if (!type.equals("BOOKMARK") && maxEvents != null && ++seen >= maxEvents || Thread.currentThread().isInterrupted()) {
                return End.DONE;
            }
        }
        if (System.currentTimeMillis() >= deadline) {
            return End.DONE;
        }
        note("the server closed the stream");
        return End.DROPPED;
    }

    /** Starts again without a position: the server sends every current object, which the user is told. */
    private End relist(String why) {
        lastId = null;
        note("the server cannot resume from the last position (410 Gone: " + why + "); re-listed: the current objects follow as ADDED");
        return End.GONE;
    }

    /** Waits before the next attempt; false when the watch should stop instead. */
    private boolean pause(long ms) {
        if (ms == 0) {
            return true;
        }
        note("reconnecting in " + ms + " ms" + (lastId == null ? "" : " from the last event received"));
        try {
            Thread.sleep(Math.min(ms, Math.max(0, deadline - System.currentTimeMillis())));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void note(String line) {
        err().println("watch: " + line);
        err().flush();
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** Prints one event; false when the output has failed (closed, or a broken pipe). */
    private boolean print(JsonNode event) {
        if (output != Format.table) {
            out().println(event.toString());
        } else {
            JsonNode o = event.path("object");
            JsonNode m = o.path("metadata");
            out().println(String.format("%-9s %s/%s/%s gen=%s sync=%s version=%s", event.path("type").asText(),
                o.path("kind").asText(), m.path("namespace").asText(), m.path("name").asText(), m.path("generation").asText(),
                o.path("status").path("syncStatus").asText("-"), m.path("resourceVersion").asText()));
        }
        return !out().checkError();
    }
}
