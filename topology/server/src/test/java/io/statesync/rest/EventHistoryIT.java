package io.statesync.rest;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.cli.StatesyncCli;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import io.statesync.view.EventHistory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What happened to a resource: the event history over REST, in describe, and read again by a fresh instance. */
@ExtendWith(EmbeddedClusterExtension.class)
class EventHistoryIT {

    private static RestTestApp app;
    private static Map<String, Object> config;

    @BeforeAll
    static void start() throws Exception {
        String prefix = RestTestApp.prefix("events");
        config = RestTestApp.config("events", prefix);
        app = RestTestApp.start(config).as(RestTestApp.WRITER);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void shouldListAResourcesEventsNewestFirstWithRepeatsCounted() {
        String name = "e-" + UUID.randomUUID().toString().substring(0, 8);
        String path = "/api/v1/resources/WebApp/default/" + name;
        app.put(path, body(Map.of("replicas", 1), Map.of()));
        app.put(path, body(Map.of("replicas", 2), Map.of()));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> stale = app.send("PUT", path, body(Map.of("replicas", 9), Map.of()), "application/json",
                "If-Match", "\"999999999\"");
            assertThat(stale.statusCode()).isEqualTo(409);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> json(app.get(path + "/events")).path("items").size() >= 5);
        JsonNode items = json(app.get(path + "/events")).path("items");
        // Each write's reconcile issues its correction just before admission answers it.
        assertThat(items).extracting(e -> e.path("reason").asText())
            .startsWith("ResourceVersionMismatch", "SpecChanged", "CorrectionIssued", "Created", "CorrectionIssued");
        assertThat(items.get(0).path("type").asText()).isEqualTo("Conflict");
        assertThat(items.get(0).path("count").asInt()).isEqualTo(3);
        assertThat(items.get(0).path("firstTimestamp").asText()).isLessThanOrEqualTo(items.get(0).path("lastTimestamp").asText());
        assertThat(items.get(2).path("count").asInt()).isEqualTo(1);
        assertThat(items.get(2).path("message").asText()).isEqualTo("CREATE (Missing) for generation 2");

        StringWriter out = new StringWriter();
        CommandLine cli = StatesyncCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        int exit = cli.execute("describe", "WebApp/default/" + name, "--server", app.base, "--token", RestTestApp.WRITER);
        assertThat(exit).isZero();
        assertThat(out.toString()).contains("Name:", name, "Generation:", "2", "Conditions:", "Events:")
            .containsPattern("Conflict\\s+ResourceVersionMismatch\\s+3");
    }

    @Test
    void shouldReadTheHistoryBackFromTheTopicInAFreshInstance() throws Exception {
        String name = "r-" + UUID.randomUUID().toString().substring(0, 8);
        String path = "/api/v1/resources/WebApp/default/" + name;
        app.put(path, body(Map.of("a", 1), Map.of()));
        app.send("PATCH", path, "{\"spec\":{\"a\":2}}", "application/merge-patch+json");
        await().atMost(Duration.ofSeconds(20)).until(() -> json(app.get(path + "/events")).path("items").size() >= 4);
        AppConfig appConfig = new AppConfig(config);
        try (EventHistory fresh = new EventHistory(appConfig, new TopicNames(appConfig.topicPrefix()), new TopologySerdes(appConfig))) {
            fresh.start();
            await().atMost(Duration.ofSeconds(30)).until(fresh::ready);
            List<EventHistory.Entry> events = fresh.events("WebApp/default/" + name);
            assertThat(events).extracting(EventHistory.Entry::reason)
                .containsExactly("SpecChanged", "CorrectionIssued", "Created", "CorrectionIssued");
        }
    }

    @Test
    void shouldAnswerAnEmptyListForAResourceWithoutEvents() {
        JsonNode list = json(app.get("/api/v1/resources/WebApp/default/never-written/events"));
        assertThat(list.path("kind").asText()).isEqualTo("EventList");
        assertThat(list.path("items")).isEmpty();
    }
}
