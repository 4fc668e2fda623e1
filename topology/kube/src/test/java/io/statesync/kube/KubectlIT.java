package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import io.statesync.topology.InTestAgent;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** kubectl 1.32 against a real instance, with a kubeconfig from {@code statesync kubeconfig}; each command a test. */
@ExtendWith(EmbeddedClusterExtension.class)
class KubectlIT {

    private static KubeTestApp app;
    private static Kubectl kubectl;
    private static Path kubeconfigPath;

    @BeforeAll
    static void start() throws Exception {
        Kubectl.require();
        // kubectl sends a bearer token over https only (client-go drops credentials for a plain-http server), so this
        // instance runs open on loopback, as `statesync up` does; the tokens' Status answers are tested with fabric8.
        Map<String, Object> config = KubeTestApp.config("kubectl");
        config.remove(ServerConfig.AUTH_TOKENS);
        app = KubeTestApp.start(config);
        kubectl = Kubectl.of(app);
        kubeconfigPath = kubectl.kubeconfig();
        app.putKind("WebApp", Map.of("shortNames", List.of("wa"), "correctionDeadlineMs", 3_600_000L));
        app.putKind("Database", Map.of("plural", "databases", "shortNames", List.of("db")));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static String webApp(String namespace, String name, String image, int replicas, String label) {
        return "apiVersion: statesync.io/v1\nkind: WebApp\nmetadata:\n  name: " + name + "\n  namespace: " + namespace
            + "\n  labels:\n    tier: " + label + "\nspec:\n  image: " + image + "\n  replicas: " + replicas + "\n";
    }

    private static Kubectl.Result ok(String stdin, String... args) throws Exception {
        Kubectl.Result r = kubectl.run(stdin, args);
        assertThat(r.exit()).as("kubectl %s: %s", String.join(" ", args), r.all()).isZero();
        return r;
    }

    @Test
    void shouldApplyAMultiDocumentFileAndApplyItAgainWithAChange() throws Exception {
        String docs = webApp("apply", "a", "nginx:1", 1, "web") + "---\n" + webApp("apply", "b", "nginx:1", 1, "web");

        Kubectl.Result first = ok(docs, "apply", "-f", "-");
        Kubectl.Result second = ok(docs.replace("replicas: 1", "replicas: 3"), "apply", "-f", "-");
        Kubectl.Result yaml = ok(null, "get", "webapp", "a", "-n", "apply", "-o", "yaml");

        assertThat(first.out()).contains("webapp.statesync.io/a created").contains("webapp.statesync.io/b created");
        assertThat(second.out()).contains("webapp.statesync.io/a configured").contains("webapp.statesync.io/b configured");
        assertThat(yaml.out()).contains("replicas: 3").contains("generation: 2").contains("kubectl.kubernetes.io/last-applied-configuration");
    }

    @Test
    void shouldGetATableYamlByLabelAndAcrossNamespaces() throws Exception {
        ok(webApp("get1", "shop", "nginx:1", 2, "web") + "---\n" + webApp("get2", "cart", "nginx:1", 1, "api"), "apply", "-f", "-");

        Kubectl.Result table = ok(null, "get", "webapps", "-n", "get1");
        Kubectl.Result wide = ok(null, "get", "wa", "-n", "get1", "-o", "wide");
        Kubectl.Result yaml = ok(null, "get", "webapp", "shop", "-n", "get1", "-o", "yaml");
        Kubectl.Result labelled = ok(null, "get", "webapps", "-A", "-l", "tier=api", "-o", "name");
        Kubectl.Result all = ok(null, "get", "webapps", "-A");

        assertThat(table.out()).contains("NAME").contains("SYNC").contains("HEALTH").contains("GEN").contains("OBSERVED")
            .contains("AGE").contains("shop").contains("Progressing").contains("Missing");
        assertThat(wide.out()).contains("REASON");
        assertThat(yaml.out()).contains("apiVersion: statesync.io/v1").contains("kind: WebApp").contains("image: nginx:1")
            .contains("syncStatus:").contains("uid:");
        assertThat(labelled.out().trim()).isEqualTo("webapp.statesync.io/cart");
        assertThat(all.out()).contains("get1").contains("get2").contains("shop").contains("cart");
    }

    @Test
    void shouldWatchAndPrintChangesAsTheyHappen() throws Exception {
        ok(webApp("watch", "w", "nginx:1", 1, "web"), "apply", "-f", "-");
        Process watch = kubectl.start("get", "webapps", "-n", "watch", "--watch", "-o", "name");
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8))) {
            lines.add(out.readLine());
            ok(webApp("watch", "w2", "nginx:1", 1, "web"), "apply", "-f", "-");
            lines.add(out.readLine());
        } finally {
            watch.destroy();
            watch.waitFor(10, TimeUnit.SECONDS);
        }

        assertThat(lines).containsExactly("webapp.statesync.io/w", "webapp.statesync.io/w2");
    }

    @Test
    void shouldWatchAsATable() throws Exception {
        ok(webApp("watch-table", "t", "nginx:1", 1, "web"), "apply", "-f", "-");
        Process watch = kubectl.start("get", "webapps", "-n", "watch-table", "--watch");
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8))) {
            lines.add(out.readLine());
            lines.add(out.readLine());
            ok(webApp("watch-table", "t2", "nginx:1", 1, "web"), "apply", "-f", "-");
            // The list printed the header and t; a watch event prints the next row, which must be a Table row too.
            String next = out.readLine();
            while (next != null && next.startsWith("t ")) {
                next = out.readLine();
            }
            lines.add(next);
        } finally {
            watch.destroy();
            watch.waitFor(10, TimeUnit.SECONDS);
        }

        assertThat(lines.get(0)).contains("NAME").contains("SYNC").contains("HEALTH").contains("AGE");
        assertThat(lines.get(1)).startsWith("t ").contains("Progressing");
        assertThat(lines.get(2)).startsWith("t2 ").contains("Progressing").contains("Missing");
    }

    @Test
    void shouldDiffWithAServerSideDryRun() throws Exception {
        ok(webApp("diff", "d", "nginx:1", 1, "web"), "apply", "-f", "-");

        Kubectl.Result diff = kubectl.run(webApp("diff", "d", "nginx:2", 1, "web"), "diff", "-f", "-");
        Kubectl.Result same = kubectl.run(webApp("diff", "d", "nginx:1", 1, "web"), "diff", "-f", "-");
        Kubectl.Result after = ok(null, "get", "webapp", "d", "-n", "diff", "-o", "jsonpath={.spec.image}");

        assertThat(diff.exit()).as(diff.all()).isEqualTo(1);
        assertThat(diff.out()).contains("-  image: nginx:1").contains("+  image: nginx:2");
        assertThat(same.exit()).as(same.all()).isZero();
        assertThat(after.out()).isEqualTo("nginx:1");
    }

    @Test
    void shouldPatchWithMergeAndJsonPatches() throws Exception {
        ok(webApp("patch", "p", "nginx:1", 1, "web"), "apply", "-f", "-");

        ok(null, "patch", "webapp", "p", "-n", "patch", "--type", "merge", "-p", "{\"spec\":{\"replicas\":5}}");
        ok(null, "patch", "webapp", "p", "-n", "patch", "--type", "json", "-p", "[{\"op\":\"replace\",\"path\":\"/spec/image\",\"value\":\"nginx:9\"}]");
        Kubectl.Result strategic = kubectl.run(null, "patch", "webapp", "p", "-n", "patch", "-p", "{\"spec\":{\"replicas\":6}}");
        Kubectl.Result spec = ok(null, "get", "webapp", "p", "-n", "patch", "-o", "jsonpath={.spec.replicas} {.spec.image}");

        assertThat(spec.out()).isEqualTo("5 nginx:9");
        assertThat(strategic.exit()).isNotZero();
        assertThat(strategic.err()).contains("strategic-merge-patch+json is not supported").contains("application/merge-patch+json");
    }

    @Test
    void shouldRefuseAReplaceWithAStaleResourceVersion() throws Exception {
        ok(webApp("replace", "r", "nginx:1", 1, "web"), "apply", "-f", "-");
        String stale = ok(null, "get", "webapp", "r", "-n", "replace", "-o", "yaml").out();
        ok(null, "patch", "webapp", "r", "-n", "replace", "--type", "merge", "-p", "{\"spec\":{\"replicas\":2}}");

        Kubectl.Result replace = kubectl.run(stale.replace("replicas: 1", "replicas: 7"), "replace", "-f", "-");
        Kubectl.Result spec = ok(null, "get", "webapp", "r", "-n", "replace", "-o", "jsonpath={.spec.replicas}");

        assertThat(replace.exit()).isNotZero();
        assertThat(replace.err()).contains("Conflict").contains("the object has been modified");
        assertThat(spec.out()).isEqualTo("2");
    }

    @Test
    void shouldDelete() throws Exception {
        ok(webApp("delete", "x", "nginx:1", 1, "web"), "apply", "-f", "-");

        Kubectl.Result deleted = ok(null, "delete", "webapp", "x", "-n", "delete");
        Kubectl.Result missing = kubectl.run(null, "delete", "webapp", "x-missing", "-n", "delete");

        assertThat(deleted.out()).contains("webapp.statesync.io \"x\" deleted");
        assertThat(missing.exit()).isNotZero();
        assertThat(missing.err()).contains("NotFound").contains("\"x-missing\" not found");
    }

    @Test
    void shouldWaitForSyncedAndDescribeTheEvents() throws Exception {
        Map<String, Object> config = app.config;
        try (InTestAgent agent = new InTestAgent(EmbeddedClusterExtension.bootstrapServers(),
                new TopologySerdes(new AppConfig(config)), new TopicNames((String) config.get(AppConfig.TOPIC_PREFIX)))) {
            ok(webApp("wait", "s", "nginx:1", 1, "web"), "apply", "-f", "-");

            Kubectl.Result waited = ok(null, "wait", "webapp/s", "-n", "wait", "--for=condition=Synced", "--timeout=60s");
            await().atMost(Duration.ofSeconds(30)).until(() -> kubectl.run(null, "describe", "webapp", "s", "-n", "wait")
                .out().contains("Events:"));
            Kubectl.Result describe = ok(null, "describe", "webapp", "s", "-n", "wait");
            Kubectl.Result events = ok(null, "get", "events", "-n", "wait");
            JsonNode eventsApi = KubeTestApp.json(app.send("GET", "/apis/events.k8s.io/v1/namespaces/wait/events"
                + "?fieldSelector=regarding.name%3Ds,regarding.kind%3DWebApp", null, null));

            assertThat(waited.out()).contains("condition met");
            assertThat(describe.out()).contains("Name:").contains("s").contains("Events:").contains("Converged");
            assertThat(events.out()).contains("webapp/s");
            assertThat(eventsApi.path("items")).isNotEmpty().allSatisfy(e -> {
                assertThat(e.path("apiVersion").asText()).isEqualTo("events.k8s.io/v1");
                assertThat(e.path("regarding").path("name").asText()).isEqualTo("s");
                assertThat(e.path("note").asText()).isNotEmpty();
            });
        }
    }

    @Test
    void shouldExplainAKind() throws Exception {
        Kubectl.Result explain = ok(null, "explain", "webapps");
        Kubectl.Result field = ok(null, "explain", "webapps.spec");

        assertThat(explain.out()).contains("KIND:").contains("WebApp").contains("statesync.io").contains("reconciled by statesync");
        assertThat(field.out()).contains("desired state");
    }

    @Test
    void shouldDiscoverEveryKindFromTheAggregatedDocument() throws Exception {
        Path fresh = KubeTestApp.tempDir();
        Kubectl uncached = new Kubectl(kubeconfigPath, fresh.resolve("cache"));

        Kubectl.Result verbose = uncached.run(null, "api-resources", "--api-group=statesync.io", "-v=6");

        assertThat(verbose.exit()).as(verbose.all()).isZero();
        assertThat(verbose.out()).contains("webapps");
        assertThat(verbose.err()).containsPattern("GET \\S+/apis\\?\\S* 200").doesNotContain("/apis/statesync.io/v1");
    }

    @Test
    void shouldListTheKindsWithTheirShortNames() throws Exception {
        Kubectl.Result resources = ok(null, "api-resources", "--api-group=statesync.io");
        Kubectl.Result byShortName = ok(null, "get", "db", "-A");

        assertThat(resources.out()).contains("webapps").contains("wa").contains("WebApp").contains("databases").contains("db")
            .contains("statesync.io/v1").contains("true");
        assertThat(byShortName.all()).contains("No resources found");
    }
}
