package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Namespaces through kubectl: created with {@code kubectl create ns} (a protobuf body), listed and printed as
 * Kubernetes prints them, deleted with everything in them across partitions and the namespace last, creates into a
 * terminating namespace refused with Kubernetes' message, and {@code namespace.lifecycle=enforce}.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KubectlNamespaceIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 3;
    private static KubeTestApp app;
    private static Kubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        app = start("kubectl-ns", 20, 100L);
        kubectl = Kubectl.of(app);
    }

    /** An instance without auth whose namespace deleter deletes {@code batchItems} a round, with a WebApp policy. */
    static KubeTestApp start(String name, int batchItems, long intervalMs) throws Exception {
        Kubectl.require();
        Map<String, Object> config = KubeTestApp.config(name);
        config.remove(ServerConfig.AUTH_TOKENS);
        config.put(ServerConfig.NAMESPACE_DELETION_INTERVAL_MS, intervalMs);
        config.put(ServerConfig.NAMESPACE_DELETION_BATCH_MAX_ITEMS, batchItems);
        KubeTestApp started = KubeTestApp.start(config);
        started.putKind("WebApp", Map.of("correctionDeadlineMs", 3_600_000L));
        return started;
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static Kubectl.Result ok(String stdin, String... args) throws Exception {
        return kubectl.ok(stdin, args);
    }

    private static String webApp(String namespace, String name, String extraMetadata) {
        return "apiVersion: statesync.io/v1\nkind: WebApp\nmetadata:\n  name: " + name + "\n  namespace: " + namespace
            + "\n" + extraMetadata + "spec:\n  replicas: 1\n";
    }

    @Test
    void shouldServeNamespacesInDiscoveryAndPrintThemAsKubernetesDoes() throws Exception {
        Kubectl.Result created = ok(null, "create", "ns", "listed");
        Kubectl.Result resources = ok(null, "api-resources");
        Kubectl.Result table = ok(null, "get", "ns");
        JsonNode ns = JSON.readTree(ok(null, "get", "namespace", "listed", "-o", "json").out());

        assertThat(created.out()).contains("namespace/listed created");
        assertThat(resources.out().lines().filter(l -> l.startsWith("namespaces ")).findFirst().orElse(""))
            .containsPattern("namespaces\\s+ns\\s+v1\\s+false\\s+Namespace");
        assertThat(table.out().lines().findFirst().orElse("")).containsPattern("NAME\\s+STATUS\\s+AGE");
        assertThat(table.out()).containsPattern("listed\\s+Active\\s+\\d+s");
        assertThat(ns.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(ns.path("kind").asText()).isEqualTo("Namespace");
        assertThat(ns.path("metadata").has("namespace")).isFalse();
        assertThat(ns.path("spec").path("finalizers").toString()).isEqualTo("[\"kubernetes\"]");
        assertThat(ns.path("status").path("phase").asText()).isEqualTo("Active");
        Kubectl.Result applied = ok("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: applied\n  labels: {team: b}\n",
            "apply", "-f", "-");
        Kubectl.Result explained = ok(null, "explain", "namespace.status");
        assertThat(applied.out()).contains("namespace/applied created");
        assertThat(explained.out()).contains("phase");
        Kubectl.Result labelled = ok(null, "label", "ns", "listed", "team=a");
        assertThat(labelled.out()).contains("namespace/listed labeled");
        assertThat(JSON.readTree(ok(null, "get", "ns", "listed", "-o", "json").out()).path("metadata").path("labels")
            .path("team").asText()).isEqualTo("a");
    }

    @Test
    void shouldDeleteEverythingInADeletedNamespaceAcrossPartitionsAndTheNamespaceLast() throws Exception {
        ok(null, "create", "ns", "team-a");
        Process watch = kubectl.start("get", "ns", "team-a", "--watch", "--output-watch-events");
        StringBuffer watched = collect(watch);
        StringBuilder manifests = new StringBuilder();
        Set<Integer> partitions = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            String name = String.format("app-%02d", i);
            manifests.append(webApp("team-a", name, "")).append("---\n");
            partitions.add(Utils.toPositive(Utils.murmur2(("WebApp/team-a/" + name).getBytes(StandardCharsets.UTF_8))) % PARTITIONS);
        }
        // One object whose own finalizer holds it, so that the namespace stays Terminating until the test lets it go.
        manifests.append(webApp("team-a", "held", "  finalizers: [example.com/hold]\n"));
        ok(manifests.toString(), "apply", "-f", "-");
        assertThat(partitions).as("the objects' partitions").hasSize(PARTITIONS);
        assertThat(contents("team-a")).hasSize(51);

        Kubectl.Result deleted = ok(null, "delete", "ns", "team-a", "--wait=false");
        assertThat(deleted.out()).contains("namespace \"team-a\" deleted");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
            .until(() -> contents("team-a").equals(List.of("held")));
        JsonNode terminating = JSON.readTree(ok(null, "get", "ns", "team-a", "-o", "json").out());
        assertThat(terminating.path("status").path("phase").asText()).isEqualTo("Terminating");
        assertThat(terminating.path("metadata").has("deletionTimestamp")).isTrue();
        assertThat(ok(null, "get", "ns", "team-a").out()).containsPattern("team-a\\s+Terminating");

        Kubectl.Result refused = kubectl.run(webApp("team-a", "late", ""), "apply", "-f", "-");
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.err()).contains("Error from server (Forbidden)")
            .contains("webapps.statesync.io \"late\" is forbidden: unable to create new content in namespace team-a"
                + " because it is being terminated");
        HttpResponse<String> status = app.send("POST", "/apis/statesync.io/v1/namespaces/team-a/webapps",
            Map.of("metadata", Map.of("name", "late"), "spec", Map.of()), "application/json");
        JsonNode body = KubeTestApp.json(status);
        assertThat(status.statusCode()).isEqualTo(403);
        assertThat(body.path("reason").asText()).isEqualTo("Forbidden");
        assertThat(body.path("details").path("kind").asText()).isEqualTo("webapps");
        assertThat(body.path("details").path("causes").get(0).path("reason").asText()).isEqualTo("NamespaceTerminating");
        assertThat(body.path("details").path("causes").get(0).path("field").asText()).isEqualTo("metadata.namespace");

        // An object that exists may still be written while its namespace terminates: that is how its finalizer goes.
        ok(null, "patch", "webapp", "held", "-n", "team-a", "--type=merge", "-p", "{\"metadata\":{\"finalizers\":null}}");
        List<String> order = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
            boolean namespaceThere = app.send("GET", "/api/v1/namespaces/team-a", null, null).statusCode() == 200;
            int left = contents("team-a").size();
            order.add(namespaceThere + ":" + left);
            return !namespaceThere;
        });
        assertThat(order).as("never a namespace gone while something in it is left").noneMatch(s -> s.startsWith("false:")
            && !s.equals("false:0"));
        assertThat(contents("team-a")).isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> watched.toString().contains("DELETED"));
        watch.destroy();
        assertThat(watched.toString()).containsPattern("ADDED\\s+team-a\\s+Active").containsPattern("MODIFIED\\s+team-a\\s+Terminating")
            .containsPattern("DELETED\\s+team-a");
    }

    @Test
    void shouldRefuseWritesIntoAMissingNamespaceWhenEnforcingAndAcceptThemOnceItExists() throws Exception {
        Map<String, Object> config = KubeTestApp.config("kubectl-ns-enforce");
        config.remove(ServerConfig.AUTH_TOKENS);
        config.put(ServerConfig.NAMESPACE_LIFECYCLE, "enforce");
        try (KubeTestApp enforcing = KubeTestApp.start(config)) {
            enforcing.putKind("WebApp", Map.of());
            Kubectl k = Kubectl.of(enforcing);
            Kubectl.Result refused = k.run(webApp("nowhere", "a", ""), "apply", "-f", "-");
            HttpResponse<String> status = enforcing.send("POST", "/apis/statesync.io/v1/namespaces/nowhere/webapps",
                Map.of("metadata", Map.of("name", "a"), "spec", Map.of()), "application/json");
            Kubectl.Result created = k.run(null, "create", "ns", "nowhere");
            Kubectl.Result accepted = k.run(webApp("nowhere", "a", ""), "apply", "-f", "-");

            assertThat(refused.exit()).isNotZero();
            assertThat(refused.err()).contains("namespaces \"nowhere\" not found");
            assertThat(status.statusCode()).isEqualTo(404);
            assertThat(KubeTestApp.json(status).path("details").path("kind").asText()).isEqualTo("namespaces");
            assertThat(created.exit()).as(created.all()).isZero();
            assertThat(accepted.exit()).as(accepted.all()).isZero();
            assertThat(accepted.out()).contains("webapp.statesync.io/a created");
        }
    }

    @Test
    void shouldServeNamespacesToFabric8sTypedClient() {
        try (io.fabric8.kubernetes.client.KubernetesClient client = KubeTestApp.client(app.base(), "default")) {
            client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("typed").addToLabels("via", "fabric8").endMetadata().build()).create();
            io.fabric8.kubernetes.api.model.Namespace read = client.namespaces().withName("typed").get();

            assertThat(read.getStatus().getPhase()).isEqualTo("Active");
            assertThat(read.getSpec().getFinalizers()).containsExactly("kubernetes");
            assertThat(read.getMetadata().getLabels()).containsEntry("via", "fabric8");
            assertThat(client.namespaces().list().getItems()).extracting(n -> n.getMetadata().getName()).contains("typed");
            client.namespaces().withName("typed").delete();
            await().atMost(Duration.ofSeconds(30)).until(() -> client.namespaces().withName("typed").get() == null);
        }
    }

    @Test
    void shouldAcceptWritesIntoAMissingNamespaceByDefaultWithoutMakingANamespaceObject() throws Exception {
        ok(webApp("implicit", "a", ""), "apply", "-f", "-");

        assertThat(contents("implicit")).containsExactly("a");
        assertThat(app.send("GET", "/api/v1/namespaces/implicit", null, null).statusCode()).isEqualTo(404);
    }

    @Test
    void shouldRefuseAProtobufBodyOfAnyOtherKindWith415() {
        HttpResponse<String> r = app.send("POST", "/apis/statesync.io/v1/namespaces/x/webapps", "k8s\u0000junk",
            "application/vnd.kubernetes.protobuf");

        assertThat(r.statusCode()).isEqualTo(415);
        assertThat(KubeTestApp.json(r).path("reason").asText()).isEqualTo("UnsupportedMediaType");
    }

    /** The names of the WebApps in {@code namespace}, read through the Kubernetes API. */
    private static List<String> contents(String namespace) {
        List<String> out = new ArrayList<>();
        HttpResponse<String> r = app.send("GET", "/apis/statesync.io/v1/namespaces/" + namespace + "/webapps", null, null);
        KubeTestApp.json(r).path("items").forEach(o -> out.add(o.path("metadata").path("name").asText()));
        return out;
    }

    /** What a process prints, as it prints it, until it ends or is stopped. */
    static StringBuffer collect(Process p) {
        StringBuffer out = new StringBuffer();
        Thread t = new Thread(() -> {
            try (java.io.BufferedReader r = p.inputReader(StandardCharsets.UTF_8)) {
                for (String line; (line = r.readLine()) != null; ) {
                    out.append(line).append('\n');
                }
            } catch (java.io.IOException closed) {
                // The process was stopped while its output was read; what it printed before is in out.
            }
        });
        t.setDaemon(true);
        t.start();
        return out;
    }
}
