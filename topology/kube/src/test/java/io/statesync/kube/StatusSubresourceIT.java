package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.schemas.Values;
import io.statesync.server.ServerConfig;
import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The status subresource on the Kubernetes API, written by kubectl and by Kubernetes' Python client as controllers
 * write it: each write is an observed report, shown in {@code .status}, checked against its resourceVersion, and
 * never a change of spec or generation, while a spec write never changes the reported status.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class StatusSubresourceIT {

    private static final String NS = "status-ns";
    private static final String PATH = "/apis/statesync.io/v1/namespaces/" + NS + "/webapps/";
    private static final int STATUS_MAX_BYTES = 4_096;
    private static KubeTestApp app;
    private static Kubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        Kubectl.require();
        // kubectl sends no bearer token over plain http, so this instance runs open on loopback as `statesync up` does.
        Map<String, Object> config = KubeTestApp.config("kube-status");
        config.remove(ServerConfig.AUTH_TOKENS);
        config.put(AppConfig.SPEC_MAX_BYTES, STATUS_MAX_BYTES);
        app = KubeTestApp.start(config);
        kubectl = Kubectl.of(app);
        app.putKind("WebApp", Map.of("correctionDeadlineMs", 3_600_000L));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static Kubectl.Result ok(String stdin, String... args) throws Exception {
        Kubectl.Result r = kubectl.run(stdin, args);
        assertThat(r.exit()).as("kubectl %s: %s", String.join(" ", args), r.all()).isZero();
        return r;
    }

    private static String get(String name, String jsonPath) throws Exception {
        return ok(null, "get", "webapp", name, "-n", NS, "-o", "jsonpath={" + jsonPath + "}").out();
    }

    private static void create(String name) throws Exception {
        ok("apiVersion: statesync.io/v1\nkind: WebApp\nmetadata:\n  name: " + name + "\n  namespace: " + NS
            + "\nspec:\n  image: nginx:1\n  replicas: 2\n", "create", "-f", "-");
    }

    private static HttpResponse<String> mergeStatus(String name, String patch) {
        return app.send("PATCH", PATH + name + "/status", patch, "application/merge-patch+json");
    }

    @Test
    void shouldPatchTheStatusWithKubectlAndReadItBackWithJsonPath() throws Exception {
        create("kubectl");

        ok(null, "patch", "webapp", "kubectl", "-n", NS, "--subresource=status", "--type", "merge", "-p",
            "{\"status\":{\"readyReplicas\":2}}");

        assertThat(get("kubectl", ".status.readyReplicas")).isEqualTo("2");
        assertThat(get("kubectl", ".status.syncStatus")).isNotEmpty();
        assertThat(get("kubectl", ".spec.replicas")).isEqualTo("2");
        assertThat(get("kubectl", ".metadata.generation")).isEqualTo("1");
    }

    @Test
    void shouldWriteStatusFromThePythonClientByMergePatchAndApplyThenWaitForItsReadyCondition() throws Exception {
        PythonClientIT.requireModule("kubernetes");
        JsonNode seen = PythonClientIT.run("kube_status_subresource.py", app.base(), "unused", NS, "WebApp", "webapps");

        Kubectl.Result waited = ok(null, "wait", "--for=condition=Ready", "webapp/py-status", "-n", NS, "--timeout=30s");

        assertThat(seen.path("generation").asInt()).isEqualTo(1);
        assertThat(seen.path("merged").toString()).as("readyReplicas, spec.replicas, generation").isEqualTo("[1,2,1]");
        assertThat(seen.path("applied").toString()).isEqualTo("[2,\"Synced\",[\"Healthy\",\"ObservedStale\",\"Progressing\","
            + "\"Ready\",\"Stalled\",\"Synced\"]]");
        assertThat(seen.path("stale").toString()).isEqualTo("[409,\"Conflict\"]");
        assertThat(waited.out()).contains("condition met");
    }

    @Test
    void shouldRefuseAStaleResourceVersionAsAKubernetesConflict() throws Exception {
        create("stale");
        String before = get("stale", ".metadata.resourceVersion");
        assertThat(mergeStatus("stale", "{\"status\":{\"readyReplicas\":1}}").statusCode()).isEqualTo(200);

        HttpResponse<String> r = mergeStatus("stale", "{\"metadata\":{\"resourceVersion\":\"" + before
            + "\"},\"status\":{\"readyReplicas\":2}}");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
        JsonNode status = KubeTestApp.json(r);
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("reason").asText()).isEqualTo("Conflict");
        assertThat(get("stale", ".status.readyReplicas")).isEqualTo("1");
    }

    @Test
    void shouldKeepSpecAndGenerationOnAStatusWriteAndTheReportedStatusOnASpecWrite() throws Exception {
        create("contract");
        HttpResponse<String> statusWrite = mergeStatus("contract",
            "{\"spec\":{\"replicas\":9},\"metadata\":{\"labels\":{\"x\":\"y\"}},\"status\":{\"readyReplicas\":2}}");

        ok(null, "patch", "webapp", "contract", "-n", NS, "--type", "merge", "-p",
            "{\"spec\":{\"replicas\":3},\"status\":{\"readyReplicas\":7}}");

        assertThat(statusWrite.statusCode()).as(statusWrite.body()).isEqualTo(200);
        assertThat(KubeTestApp.json(statusWrite).path("spec").path("replicas").asInt()).isEqualTo(2);
        assertThat(KubeTestApp.json(statusWrite).path("metadata").path("labels").has("x")).isFalse();
        assertThat(get("contract", ".spec.replicas")).isEqualTo("3");
        assertThat(get("contract", ".metadata.generation")).isEqualTo("2");
        assertThat(get("contract", ".status.readyReplicas")).isEqualTo("2");
    }

    @Test
    void shouldBeSyncedOnceTheControllersObservedGenerationReachesTheGeneration() throws Exception {
        create("controller");

        mergeStatus("controller", "{\"status\":{\"readyReplicas\":0,\"observedGeneration\":0}}");
        String behind = get("controller", ".status.syncStatus");
        mergeStatus("controller", "{\"status\":{\"readyReplicas\":2,\"observedGeneration\":1}}");

        assertThat(behind).isNotEqualTo("Synced");
        assertThat(get("controller", ".status.syncStatus")).isEqualTo("Synced");
    }

    @Test
    void shouldShowAnAgentsReportedStatusAndKeepItsObservedSpecAcrossAStatusWrite() throws Exception {
        Map<String, Object> config = app.config;
        try (InTestAgent agent = new InTestAgent(EmbeddedClusterExtension.bootstrapServers(),
                new TopologySerdes(new AppConfig(config)), new TopicNames((String) config.get(AppConfig.TOPIC_PREFIX)))) {
            agent.hold();
            create("agent");
            String uid = get("agent", ".metadata.uid");
            agent.report("WebApp/" + NS + "/agent", uid, 1, Values.fromJava(Map.of("image", "nginx:1", "replicas", 1)),
                Values.fromJava(Map.of("readyReplicas", 1)), null);
            await().atMost(Duration.ofSeconds(30)).until(() -> get("agent", ".status.readyReplicas"), "1"::equals);

            HttpResponse<String> r = mergeStatus("agent", "{\"status\":{\"readyReplicas\":1,\"observedGeneration\":1}}");

            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(get("agent", ".status.syncStatus")).as("the agent's observed spec still differs")
                .isNotEqualTo("Synced");
            assertThat(get("agent", ".status.diff[0].path")).contains("replicas");
        }
    }

    @Test
    void shouldRefuseHostileStatusWritesAsKubernetesStatusesAndKeepAdmitting() throws Exception {
        create("hostile");
        String huge = "{\"status\":{\"blob\":\"" + "x".repeat(STATUS_MAX_BYTES * 2) + "\"}}";
        String deep = "{\"status\":" + "{\"a\":".repeat(200) + "1" + "}".repeat(200) + "}";

        HttpResponse<String> tooLarge = mergeStatus("hostile", huge);
        HttpResponse<String> tooDeep = mergeStatus("hostile", deep);
        HttpResponse<String> missing = mergeStatus("nobody", "{\"status\":{\"readyReplicas\":1}}");

        assertThat(tooLarge.statusCode()).as(tooLarge.body()).isEqualTo(413);
        assertThat(tooDeep.statusCode()).as(tooDeep.body()).isBetween(400, 499);
        assertThat(missing.statusCode()).as(missing.body()).isEqualTo(404);
        for (HttpResponse<String> r : List.of(tooLarge, tooDeep, missing)) {
            assertThat(KubeTestApp.json(r).path("kind").asText()).as(r.body()).isEqualTo("Status");
        }
        for (int i = 0; i < 6; i++) {
            create("after-" + i);
            assertThat(mergeStatus("after-" + i, "{\"status\":{\"readyReplicas\":" + i + "}}").statusCode())
                .as("a status write on every partition after the hostile ones").isEqualTo(200);
        }
    }
}
