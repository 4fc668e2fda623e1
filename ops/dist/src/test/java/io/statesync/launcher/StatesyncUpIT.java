package io.statesync.launcher;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code statesync up} as the README runs it: the distribution's {@code bin/statesync up} with
 * {@code STATESYNC_REGISTRY_JAR} set, exactly what the top-level {@code ./statesync} script executes once its build
 * is current. (That script itself would run {@code mvn install} here, since no build stamp exists under
 * {@code mvn verify}.) Free ports and a temporary data directory; REST, the demo agent, SIGTERM (what Ctrl-C and a
 * service manager send) and a restart on the same data.
 */
class StatesyncUpIT {

    private static final String RESOURCE = "/api/v1/resources/WebApp/default/shop";
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(120);

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workDir;

    private final List<UpProcess> started = new ArrayList<>();

    @Test
    void shouldServeAndSyncStopCleanlyOnSigtermAndKeepTheResourceAcrossARestart() throws Exception {
        Path dataDir = workDir.resolve("data");
        int kafkaPort = UpProcess.freePort();
        int registryPort = UpProcess.freePort();
        int httpPort = UpProcess.freePort();

        UpProcess first = start(dataDir, kafkaPort, registryPort, httpPort, "up-1.log");
        HttpRequest putRequest = HttpRequest.newBuilder(first.uri(RESOURCE)).header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(30))
            .PUT(HttpRequest.BodyPublishers.ofString("{\"spec\":{\"image\":\"nginx:1.21\",\"replicas\":2}}")).build();
        // 503 and 504 ask the client to send again (an identical write is a no-op); any other answer is final.
        List<HttpResponse<String>> answers = new ArrayList<>();
        first.await(() -> "PUT " + RESOURCE + " answered other than 503/504 (answers: " + answers + ")", WRITE_TIMEOUT, () -> {
            HttpResponse<String> r = UpProcess.send(putRequest, HttpResponse.BodyHandlers.ofString());
            if (r != null) {
                answers.add(r);
            }
            return r != null && r.statusCode() != 503 && r.statusCode() != 504;
        });
        HttpResponse<String> put = answers.get(answers.size() - 1);
        assertThat(put.statusCode()).as("PUT %s answered %s", RESOURCE, put.body()).isIn(200, 201);
        String uid = JSON.readTree(put.body()).path("metadata").path("uid").asText();
        assertThat(uid).as("uid in the PUT's answer %s", put.body()).isNotBlank();

        // The demo agent applies the correction (after a simulated latency, sometimes failing once) and reports back.
        JsonNode[] last = new JsonNode[1];
        first.await(() -> RESOURCE + " Synced through the demo agent (last read: " + last[0] + ")", SYNC_TIMEOUT, () -> {
            last[0] = first.get(RESOURCE);
            return last[0] != null && "Synced".equals(last[0].path("status").path("syncStatus").asText());
        });
        assertThat(last[0].path("metadata").path("uid").asText()).isEqualTo(uid);
        assertServesTheWebUi(first);
        // The distribution carries the Kubernetes API: the same object under its Kubernetes path.
        JsonNode kube = first.get("/apis/statesync.io/v1/namespaces/default/webapps/shop");
        assertThat(kube).as("the Kubernetes API's GET of the resource").isNotNull();
        assertThat(kube.path("kind").asText()).isEqualTo("WebApp");
        assertThat(kube.path("metadata").path("uid").asText()).isEqualTo(uid);

        first.stopWithSigtermAndExpectNothingLeft();

        UpProcess second = start(dataDir, kafkaPort, registryPort, httpPort, "up-2.log");
        JsonNode[] again = new JsonNode[1];
        second.await(RESOURCE + " readable after the restart on the same data directory", WRITE_TIMEOUT,
            () -> (again[0] = second.get(RESOURCE)) != null);
        assertThat(again[0].path("metadata").path("uid").asText()).as("uid after the restart").isEqualTo(uid);
        assertThat(again[0].path("spec").path("image").asText()).isEqualTo("nginx:1.21");

        second.stopWithSigtermAndExpectNothingLeft();
    }

    /** Whatever a failed test left running: the launcher and everything it started. */
    @AfterEach
    void killLeftovers() {
        started.forEach(UpProcess::kill);
    }

    private UpProcess start(Path dataDir, int kafkaPort, int registryPort, int httpPort, String logName) throws Exception {
        UpProcess up = UpProcess.start(workDir, dataDir, kafkaPort, registryPort, httpPort, logName);
        started.add(up);
        return up.awaitReady();
    }

    /** The distribution carries the ui module, so the instance serves the page and its modules. */
    private void assertServesTheWebUi(UpProcess up) throws Exception {
        HttpResponse<String> page = UpProcess.send(HttpRequest.newBuilder(up.uri("/")).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).as("GET / answered %s", page.body()).isEqualTo(200);
        assertThat(page.body()).contains("/ui/app.js");
        HttpResponse<String> module = UpProcess.send(HttpRequest.newBuilder(up.uri("/ui/app.js")).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(module.statusCode()).isEqualTo(200);
        assertThat(module.headers().firstValue("Content-Type").orElse("")).startsWith("text/javascript");
    }
}
