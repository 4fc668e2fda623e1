package io.statesync.kube;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.rest.JsonRequests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every route the instance registered, its own and the Kubernetes extension's, taken from Javalin's route table
 * rather than a list kept by hand, so that a route added later is swept too: without a token each answers 401
 * except the documented free paths, and a reader's write answers 403.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class AuthSweepIT {

    /** The free paths docs/security.md lists: probes, metrics, the API description and the web UI's files. */
    private static final Set<String> FREE = Set.of("GET /healthz", "GET /livez", "GET /readyz", "GET /metrics", "GET /openapi.json",
        "GET /", "GET /ui/", "GET /ui/{file}");
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Pattern PARAM = Pattern.compile("\\{([a-zA-Z]+)}|<([a-zA-Z]+)>");
    private static final Map<String, String> VALUES = Map.of("kind", "WebApp", "namespace", "default", "name", "sweep-1",
        "plural", "webapps", "file", "app.js", "group", "statesync.io", "version", "v1");

    private static KubeTestApp app;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        app = KubeTestApp.start(KubeTestApp.config("auth-sweep"));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void shouldRefuseEveryRegisteredRouteWithoutATokenExceptTheDocumentedFreePaths() {
        List<String> routes = app.app.restServer().registeredRoutes();
        assertThat(routes).as("the Kubernetes extension's routes are in the table").anyMatch(r -> r.contains(" /apis/{group}/{version}/"));
        assertThat(routes).as("the server's own routes are in the table").anyMatch(r -> r.contains(" /api/v1/resources/"));
        Set<String> open = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        for (String route : routes) {
            String method = route.substring(0, route.indexOf(' '));
            HttpResponse<String> r = send(method, fill(route.substring(route.indexOf(' ') + 1)), null);
            if (r.statusCode() != 401) {
                open.add(route);
            } else if (!method.equals("HEAD") && codeOf(r) != 401) {
                wrong.add(route + ": 401 without a JSON body with code 401: " + r.body());
            }
        }
        System.out.printf("AuthSweepIT: %d routes swept without a token; open: %s%n", routes.size(), open);
        assertThat(wrong).isEmpty();
        assertThat(open).as("routes that answer without a token").isEqualTo(new TreeSet<>(FREE));
    }

    @Test
    void shouldRefuseEveryRegisteredWriteRouteToAReader() {
        List<String> writes = app.app.restServer().registeredRoutes().stream()
            .filter(r -> WRITES.contains(r.substring(0, r.indexOf(' ')))).toList();
        assertThat(writes).as("writes of both APIs").anyMatch(r -> r.contains(" /apis/")).anyMatch(r -> r.contains(" /api/v1/"));
        List<String> wrong = new ArrayList<>();
        for (String route : writes) {
            String method = route.substring(0, route.indexOf(' '));
            HttpResponse<String> r = send(method, fill(route.substring(route.indexOf(' ') + 1)), KubeTestApp.READER);
            if (r.statusCode() != 403 || codeOf(r) != 403) {
                wrong.add(route + " answered " + r.statusCode() + ": " + r.body());
            }
        }
        System.out.printf("AuthSweepIT: %d write routes swept with a reader token%n", writes.size());
        assertThat(wrong).as("write routes that did not refuse a reader with 403").isEmpty();
    }

    /** The path with a plausible value for each path parameter. */
    private static String fill(String template) {
        Matcher m = PARAM.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            m.appendReplacement(out, VALUES.getOrDefault(name, "x"));
        }
        return m.appendTail(out).toString();
    }

    private static HttpResponse<String> send(String method, String path, String token) {
        boolean body = WRITES.contains(method) && !method.equals("DELETE");
        String type = method.equals("PATCH") ? "application/merge-patch+json" : "application/json";
        return JsonRequests.send(HTTP, Duration.ofSeconds(30), app.base() + path, token, method,
            body ? Map.of("spec", Map.of("a", 1)) : null, body ? type : null);
    }

    private static int codeOf(HttpResponse<String> r) {
        JsonNode n = JsonRequests.json(r);
        return n.path("code").asInt();
    }
}
