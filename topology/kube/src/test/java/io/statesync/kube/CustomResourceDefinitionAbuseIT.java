package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.rest.PartitionProbes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What one writer can do with a CustomResourceDefinition: a schema too large or too deep, a pattern that backtracks
 * without end, a rule run once per item of a long list, a definition with a poisoned record under its key. Each is a
 * clear 4xx, and every partition keeps admitting.
 */
@ExtendWith(EmbeddedClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CustomResourceDefinitionAbuseIT {

    private static final int PARTITIONS = 3;
    /** Above what the other tests define, so that only the last test reaches it. */
    private static final int MAX_DEFINITIONS = 60;
    private static KubeTestApp app;

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> config = KubeTestApp.config("crd-abuse");
        config.put(KubeConfig.DEFINITIONS_MAX_COUNT, MAX_DEFINITIONS);
        app = KubeTestApp.start(config);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static Map<String, Object> definition(String plural, String kind, Map<String, Object> specSchema) {
        return Map.of("apiVersion", "apiextensions.k8s.io/v1", "kind", "CustomResourceDefinition",
            "metadata", Map.of("name", plural + ".abuse.example"),
            "spec", Map.of("group", "abuse.example", "scope", "Namespaced",
                "names", Map.of("plural", plural, "singular", plural.substring(0, plural.length() - 1), "kind", kind),
                "versions", List.of(Map.of("name", "v1", "served", true, "storage", true,
                    "schema", Map.of("openAPIV3Schema", Map.of("type", "object", "properties", Map.of("spec", specSchema)))))));
    }

    private static HttpResponse<String> define(Map<String, Object> crd) {
        return app.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd, "application/json");
    }

    private static HttpResponse<String> create(String plural, String kind, Map<String, Object> spec) {
        return app.send("POST", "/apis/abuse.example/v1/namespaces/default/" + plural, Map.of("apiVersion", "abuse.example/v1",
            "kind", kind, "metadata", Map.of("name", "x-" + System.nanoTime()), "spec", spec), "application/json");
    }

    @Test
    void shouldRefuseASchemaPastItsBoundsWithAStatusNamingTheField() {
        Map<String, Object> deep = Map.of("type", "string");
        for (int i = 0; i < 80; i++) {
            deep = Map.of("type", "object", "properties", Map.of("a", deep));
        }
        HttpResponse<String> r = define(definition("deeps", "Deep", deep));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        assertThat(r.body()).contains("\"kind\":\"Status\"").contains("at most 10000 nodes and 64 levels");
        PartitionProbes.assertEveryPartitionAdmits((path, body) -> app.send("PUT", path, body, "application/json"),
            PARTITIONS, Duration.ofSeconds(5));
    }

    @Test
    void shouldAnswerAWriteAgainstABacktrackingPatternAndKeepEveryPartitionAdmitting() {
        HttpResponse<String> defined = define(definition("regexes", "Regex", Map.of("type", "object",
            "properties", Map.of("v", Map.of("type", "string", "pattern", "^(a+)+$")))));
        assertThat(defined.statusCode()).as(defined.body()).isEqualTo(201);
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            answers.add(create("regexes", "Regex", Map.of("v", "a".repeat(5_000) + "!")));
        }

        assertThat(answers).allSatisfy(r -> {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
            assertThat(r.body()).contains("spec.v in body should match");
        });
        PartitionProbes.assertEveryPartitionAdmits((path, body) -> app.send("PUT", path, body, "application/json"),
            PARTITIONS, Duration.ofSeconds(5));
    }

    @Test
    void shouldStopARulePerItemPastTheBudgetOfOneWrite() {
        HttpResponse<String> defined = define(definition("lists", "Listed", Map.of("type", "object",
            "properties", Map.of("items", Map.of("type", "array", "items", Map.of("type", "integer",
                "x-kubernetes-validations", List.of(Map.of("rule", "self >= 0"))))))));
        assertThat(defined.statusCode()).as(defined.body()).isEqualTo(201);
        List<Long> many = new ArrayList<>();
        for (long i = 0; i < 3_000; i++) {
            many.add(i);
        }
        HttpResponse<String> r = create("lists", "Listed", Map.of("items", many));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        assertThat(r.body()).contains("running out of cost budget");
        PartitionProbes.assertEveryPartitionAdmits((path, body) -> app.send("PUT", path, body, "application/json"),
            PARTITIONS, Duration.ofSeconds(5));
    }

    @Test
    void shouldKeepDiscoveryAnsweringWithManyDefinitions() {
        for (int i = 0; i < 50; i++) {
            Map<String, Object> crd = new HashMap<>(definition("things" + i + "s", "Thing" + i, Map.of("type", "object")));
            assertThat(define(crd).statusCode()).isEqualTo(201);
        }
        HttpResponse<String> apis = app.send("GET", "/apis", null, null);
        HttpResponse<String> openapi = app.send("GET", "/openapi/v2", null, null);

        assertThat(apis.statusCode()).isEqualTo(200);
        assertThat(apis.body()).contains("abuse.example");
        assertThat(openapi.statusCode()).isEqualTo(200);
        assertThat(openapi.body()).contains("example.abuse.v1.Thing49");
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void shouldRefuseADefinitionPastTheCountTheApiServesAndKeepServingTheOthers() {
        HttpResponse<String> refused = null;
        int created = 0;
        for (int i = 0; i <= MAX_DEFINITIONS && refused == null; i++) {
            HttpResponse<String> r = define(definition("fillers" + i + "s", "Filler" + i, Map.of("type", "object")));
            if (r.statusCode() == 201) {
                created++;
            } else {
                refused = r;
            }
        }
        HttpResponse<String> stored = app.send("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=500", null, null);
        HttpResponse<String> firstFiller = app.send("GET", "/apis/abuse.example/v1/namespaces/default/fillers0s", null, null);

        assertThat(created).isPositive();
        assertThat(refused).isNotNull();
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("\"reason\":\"Forbidden\"").contains(KubeConfig.DEFINITIONS_MAX_COUNT);
        assertThat(stored.body().split("\"kind\":\"CustomResourceDefinition\"", -1)).hasSize(MAX_DEFINITIONS + 1);
        assertThat(firstFiller.statusCode()).isEqualTo(200);
    }
}
