package io.statesync.agent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link StatesyncResourceClient#update} against a stand-in for the REST API's resource path: one versioned object,
 * If-Match checked as statesync checks it, and another writer that can be made to write between a read and a write.
 */
class StatesyncResourceClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceRef REF = new ResourceRef("Counter", "default", "c1");
    private static final ConflictRetry.Backoff FAST = new ConflictRetry.Backoff(4, Duration.ZERO, 1.0, 0.1, Duration.ZERO);

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    /** How many of the next reads another writer follows with a write of its own. */
    private final AtomicInteger racedReads = new AtomicInteger();
    private HttpServer server;
    private StatesyncResourceClient client;
    private long version = 10;
    private long counter;
    private boolean exists = true;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/resources/Counter/default/c1", this::handle);
        server.start();
        client = new StatesyncResourceClient(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), "t0k");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private synchronized void handle(HttpExchange ex) throws IOException {
        String ifMatch = ex.getRequestHeaders().getFirst("If-Match");
        requests.add(ex.getRequestMethod() + " " + ex.getRequestURI().getRawQuery() + " " + ifMatch);
        authorizations.add(ex.getRequestHeaders().getFirst("Authorization"));
        if (!exists) {
            reply(ex, 404, JSON.createObjectNode().put("code", 404).put("reason", "NotFound").put("message", "gone"));
        } else if (ex.getRequestMethod().equals("GET")) {
            ObjectNode body = object();
            if (racedReads.getAndDecrement() > 0) {
                version += 3;
                counter += 100;
            }
            reply(ex, 200, body);
        } else if (!("\"" + version + "\"").equals(ifMatch)) {
            reply(ex, 409, JSON.createObjectNode().put("code", 409).put("reason", "Conflict")
                .put("message", "stale").put("resourceVersion", String.valueOf(version)));
        } else {
            counter = JSON.readTree(ex.getRequestBody()).path("spec").path("counter").asLong();
            version++;
            reply(ex, 200, object());
        }
    }

    private ObjectNode object() {
        ObjectNode o = JSON.createObjectNode().put("kind", "Counter");
        o.putObject("metadata").put("namespace", "default").put("name", "c1").put("resourceVersion", String.valueOf(version));
        o.putObject("spec").put("counter", counter);
        return o;
    }

    private static void reply(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    private static ObjectNode increment(ObjectNode o) {
        ObjectNode spec = o.withObject("/spec");
        spec.put("counter", spec.path("counter").asLong() + 1);
        return o;
    }

    @Test
    void shouldWriteTheChangeConditionallyOnTheVersionItRead() throws Exception {
        ObjectNode written = client.update(REF, FAST, StatesyncResourceClientTest::increment);

        assertThat(written.path("spec").path("counter").asLong()).isEqualTo(1);
        assertThat(written.path("metadata").path("resourceVersion").asText()).isEqualTo("11");
        assertThat(requests).containsExactly("GET null null", "PUT null \"10\"");
        assertThat(authorizations).containsOnly("Bearer t0k");
    }

    @Test
    void shouldRepeatTheChangeOnTheWinnersVersionAfterLosingARace() throws Exception {
        racedReads.set(1);

        ObjectNode written = client.update(REF, FAST, StatesyncResourceClientTest::increment);

        assertThat(written.path("spec").path("counter").asLong()).as("the other writer's change is kept").isEqualTo(101);
        assertThat(requests).containsExactly(
            "GET null null", "PUT null \"10\"", "GET resourceVersion=13 null", "PUT null \"13\"");
    }

    @Test
    void shouldThrowTheLastConflictWhenEveryAttemptLosesItsRace() {
        racedReads.set(Integer.MAX_VALUE);

        assertThatThrownBy(() -> client.update(REF, FAST, StatesyncResourceClientTest::increment))
            .isInstanceOfSatisfying(StatesyncApiException.class, e -> {
                assertThat(e.isConflict()).isTrue();
                assertThat(e.resourceVersion()).isEqualTo("22");
            });
        assertThat(requests.stream().filter(r -> r.startsWith("PUT"))).hasSize(4);
    }

    @Test
    void shouldSurfaceAMissingObjectWithoutRetrying() {
        exists = false;

        assertThatThrownBy(() -> client.update(REF, FAST, StatesyncResourceClientTest::increment))
            .isInstanceOfSatisfying(StatesyncApiException.class, e -> {
                assertThat(e.status()).isEqualTo(404);
                assertThat(e.reason()).isEqualTo("NotFound");
            });
        assertThat(requests).hasSize(1);
    }

    @Test
    void shouldWriteNothingWhenTheChangeLeavesTheObjectAsRead() throws Exception {
        ObjectNode answer = client.update(REF, FAST, o -> o);

        assertThat(answer.path("metadata").path("resourceVersion").asText()).isEqualTo("10");
        assertThat(requests).hasSize(1).allMatch(r -> r.startsWith("GET"));
    }
}
