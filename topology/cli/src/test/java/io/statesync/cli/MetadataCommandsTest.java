package io.statesync.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code statesync label} and {@code annotate} against a stand-in for one resource of the REST API, which checks
 * If-Match as statesync does (a PUT without it replaces the object) and can let another writer change the object
 * between the command's read and write.
 */
class MetadataCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "WebApp/default/shop";

    private final List<String> seen = new ArrayList<>();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private HttpServer server;
    private ObjectNode stored;
    private long version = 5;
    /** Reads after which another writer sets the label owner=team-b before the command writes. */
    private int racedReads;

    @BeforeEach
    void start() throws IOException {
        stored = (ObjectNode) JSON.readTree("{\"kind\":\"WebApp\",\"metadata\":{\"namespace\":\"default\",\"name\":\"shop\","
            + "\"labels\":{\"tier\":\"web\"}},\"spec\":{\"replicas\":2}}");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/resources/WebApp/default/shop", this::serve);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private synchronized void serve(HttpExchange ex) throws IOException {
        String ifMatch = ex.getRequestHeaders().getFirst("If-Match");
        seen.add(ex.getRequestMethod() + (ex.getRequestURI().getQuery() == null ? "" : "?" + ex.getRequestURI().getQuery())
            + (ifMatch == null ? "" : " If-Match " + ifMatch));
        if (ex.getRequestMethod().equals("GET")) {
            stored.withObject("/metadata").put("resourceVersion", String.valueOf(version));
            byte[] body = stored.toString().getBytes(StandardCharsets.UTF_8);
            if (racedReads-- > 0) {
                stored.withObject("/metadata").withObject("/labels").put("owner", "team-b");
                version += 2;
            }
            answer(ex, 200, body);
        } else if (ifMatch != null && !ifMatch.equals("\"" + version + "\"")) {
            answer(ex, 409, ("{\"code\":409,\"reason\":\"Conflict\",\"message\":\"stale\",\"resourceVersion\":\"" + version
                + "\"}").getBytes(StandardCharsets.UTF_8));
        } else {
            stored = (ObjectNode) JSON.readTree(ex.getRequestBody());
            version++;
            answer(ex, 200, stored.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void answer(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, body.length);
        ex.getResponseBody().write(body);
        ex.close();
    }

    private int statesync(String... args) {
        CommandLine cl = StatesyncCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> line = new ArrayList<>(List.of(args));
        line.add(1, "--server=http://127.0.0.1:" + server.getAddress().getPort());
        return cl.execute(line.toArray(String[]::new));
    }

    private JsonNode labels() {
        return stored.path("metadata").path("labels");
    }

    @Test
    void shouldSetAndRemoveLabelsWithAWriteConditionalOnTheVersionRead() {
        int code = statesync("label", KEY, "env=prod", "tier-");

        assertThat(code).isEqualTo(StatesyncCli.EXIT_OK);
        assertThat(labels().toString()).isEqualTo("{\"env\":\"prod\"}");
        assertThat(stored.path("spec").path("replicas").asInt()).isEqualTo(2);
        assertThat(seen).containsExactly("GET", "PUT If-Match \"5\"");
        assertThat(out.toString()).isEqualTo(KEY + " labeled\n");
    }

    @Test
    void shouldKeepTheOtherWritersChangeWhenTheFirstWriteLosesTheRace() {
        racedReads = 1;

        int code = statesync("label", KEY, "env=prod");

        assertThat(code).isEqualTo(StatesyncCli.EXIT_OK);
        assertThat(labels().path("owner").asText()).as("the other writer's label").isEqualTo("team-b");
        assertThat(labels().path("env").asText()).isEqualTo("prod");
        assertThat(seen).containsExactly("GET", "PUT If-Match \"5\"", "GET?resourceVersion=7", "PUT If-Match \"7\"");
    }

    @Test
    void shouldExitWithConflictWhenEveryRetryLosesItsRace() {
        racedReads = Integer.MAX_VALUE;

        int code = statesync("annotate", KEY, "note=hello");

        assertThat(code).isEqualTo(StatesyncCli.EXIT_CONFLICT);
        assertThat(seen.stream().filter(s -> s.startsWith("PUT"))).hasSize(5);
        assertThat(err.toString()).contains("Conflict: stale");
        assertThat(stored.path("metadata").has("annotations")).isFalse();
    }

    @Test
    void shouldRefuseToChangeALabelsValueWithoutOverwrite() {
        assertThat(statesync("label", KEY, "tier=db")).isEqualTo(StatesyncCli.EXIT_ERROR);
        assertThat(err.toString()).contains("'tier' already has a value (web), and --overwrite is false");
        assertThat(seen).containsExactly("GET");

        assertThat(statesync("label", "--overwrite", KEY, "tier=db")).isEqualTo(StatesyncCli.EXIT_OK);
        assertThat(labels().path("tier").asText()).isEqualTo("db");
    }

    @Test
    void shouldWriteNothingWhenTheLabelsAreAlreadyAsAsked() {
        assertThat(statesync("label", KEY, "tier=web", "absent-")).isEqualTo(StatesyncCli.EXIT_OK);

        assertThat(seen).containsExactly("GET");
        assertThat(out.toString()).isEqualTo(KEY + " not labeled\n");
    }
}
