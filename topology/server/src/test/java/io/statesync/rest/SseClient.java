package io.statesync.rest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads a watch stream on a background thread into a queue of events. */
final class SseClient implements AutoCloseable {

    record Event(String type, String id, JsonNode data) {
    }

    final int status;
    final String errorBody;
    private final InputStream body;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private volatile boolean ended;

    private SseClient(HttpResponse<InputStream> r) throws IOException {
        this.status = r.statusCode();
        this.body = r.body();
        if (status != 200) {
            errorBody = new String(body.readAllBytes(), StandardCharsets.UTF_8);
            ended = true;
            return;
        }
        errorBody = null;
        Thread t = new Thread(this::read, "sse-test-reader");
        t.setDaemon(true);
        t.start();
    }

    /** {@code headers} are name, value pairs. */
    static SseClient open(String base, String pathAndQuery, String token, String... headers) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).header("Authorization", "Bearer " + token)
            .header("Accept", "text/event-stream");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            req.header(headers[i], headers[i + 1]);
        }
        return new SseClient(HttpClient.newHttpClient().send(req.GET().build(), HttpResponse.BodyHandlers.ofInputStream()));
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String type = null;
            String id = null;
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("event: ")) {
                    type = line.substring(7);
                } else if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("data: ")) {
                    events.add(new Event(type, id, RestTestApp.JSON.readTree(line.substring(6))));
                    type = null;
                    id = null;
                }
            }
        } catch (IOException e) {
            // closed by the test
        } finally {
            ended = true;
        }
    }

    /** The next event, or null after {@code timeout}. */
    Event next(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    boolean ended() {
        return ended && events.isEmpty();
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
