package io.statesync.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.cli.internal.ApiClient;
import io.statesync.rest.ResourceRecords;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.embedded.TcpRelay;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import io.statesync.view.WatchPosition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The real {@code statesync} command line against a running server on the embedded broker. */
@ExtendWith(EmbeddedClusterExtension.class)
class CliIT {

    private static final String TOKEN = "cli-" + UUID.randomUUID();
    private static StatesyncApp app;
    private static String server;
    private static Map<String, Object> config;

    record Run(int exit, String out, String err) {
    }

    @BeforeAll
    static void start() throws IOException {
        String id = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, EmbeddedClusterExtension.bootstrapServers());
        p.put(AppConfig.SCHEMA_REGISTRY_URL, EmbeddedClusterExtension.registryUrl());
        p.put(AppConfig.APPLICATION_ID, "cli-" + id);
        p.put(AppConfig.TOPIC_PREFIX, "cli-" + id + ".");
        p.put(ServerConfig.TOPIC_PARTITIONS, 3);
        p.put(AppConfig.NUM_STREAM_THREADS, 1);
        p.put(AppConfig.COMMIT_INTERVAL_MS, 50L);
        p.put(ServerConfig.HTTP_PORT, 0);
        p.put(AppConfig.STATE_DIR, Files.createTempDirectory("statesync-cli-it").toString());
        p.put(ServerConfig.AUTH_TOKENS, TOKEN + ":writer");
        config = p;
        app = new StatesyncApp(new AppConfig(p));
        app.start();
        server = "http://127.0.0.1:" + app.httpPort();
        await().atMost(java.time.Duration.ofSeconds(90)).until(() -> app.restServer().readinessProblems().isEmpty());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = cli(out, err, args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Runs a command writing to {@code out} and {@code err}, which another thread may read while it runs. */
    static int cli(Writer out, Writer err, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (all.size() > 0 && !all.contains("--server")) {
            int at = all.get(0).equals("kinds") ? 2 : 1;
            all.addAll(at, List.of("--server", server, "--token", TOKEN));
        }
        CommandLine cl = StatesyncCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(all.toArray(String[]::new));
    }

    private static Path yaml(Path dir, String text) throws IOException {
        Path f = dir.resolve("r-" + UUID.randomUUID() + ".yaml");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void shouldApplyManyDocumentsWithAProgressBarThenListThemAsATable(@TempDir Path dir) throws IOException {
        String ns = "cli-" + UUID.randomUUID().toString().substring(0, 6);
        StringBuilder docs = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            docs.append("---\napiVersion: statesync.io/v1\nkind: WebApp\nmetadata:\n  name: app-").append(i)
                .append("\n  namespace: ").append(ns).append("\n  labels: {tier: web}\nspec:\n  replicas: ").append(i).append('\n');
        }
        Run apply = cli("apply", "-f", yaml(dir, docs.toString()).toString());
        assertThat(apply.exit()).as(apply.err()).isZero();
        assertThat(apply.err()).contains("3/3");
        assertThat(apply.out()).contains("3 applied");

        Run list = cli("list", "-n", ns, "-l", "tier=web");
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out().lines().findFirst().orElse("")).contains("SYNC", "HEALTH", "GEN", "OBSERVED-GEN");
        assertThat(list.out()).contains("app-0", "app-1", "app-2");
        // No agent reports in this test, so every resource is Missing.
        assertThat(cli("list", "-n", ns, "--health", "Missing").out()).contains("app-0", "app-1", "app-2");
        assertThat(cli("list", "-n", ns, "--health", "Healthy").out()).doesNotContain("app-0");

        Run yamlList = cli("list", "-n", ns, "-o", "yaml");
        assertThat(yamlList.out()).contains("kind: ResourceList").contains("name: app-2");
    }

    @Test
    void shouldReportEveryDocumentOfALargeApplyAndWriteNothingOnADryRun(@TempDir Path dir) throws IOException {
        String ns = "bulk-" + UUID.randomUUID().toString().substring(0, 6);
        StringBuilder docs = new StringBuilder();
        for (int i = 0; i < 1_200; i++) {
            docs.append("---\nkind: WebApp\nmetadata: {name: app-").append(i).append(", namespace: ").append(ns)
                .append("}\nspec: {replicas: ").append(i).append("}\n");
        }
        docs.append("---\nkind: WebApp\nmetadata: {name: app-0, namespace: ").append(ns)
            .append(", resourceVersion: \"999999999\"}\nspec: {replicas: 5}\n");
        Path file = yaml(dir, docs.toString());
        Run dry = cli("apply", "--dry-run", "--no-progress", "-f", file.toString());
        assertThat(dry.exit()).as(dry.err()).isEqualTo(StatesyncCli.EXIT_CONFLICT);
        assertThat(dry.out()).contains("WebApp/" + ns + "/app-1199 created (dry run)");
        assertThat(cli("get", "WebApp/" + ns + "/app-7").exit()).isEqualTo(StatesyncCli.EXIT_ERROR);

        Run apply = cli("apply", "-f", file.toString());
        assertThat(apply.exit()).as(apply.err()).isEqualTo(StatesyncCli.EXIT_CONFLICT);
        assertThat(apply.err()).contains("1201/1201").contains("apply WebApp/" + ns + "/app-0: Conflict");
        assertThat(apply.out()).contains("1201 documents: 1200 applied, 1 conflicts, 0 failed");
        Run got = cli("get", "WebApp/" + ns + "/app-1199", "-o", "json");
        assertThat(new ObjectMapper().readTree(got.out()).path("spec").path("replicas").asInt()).isEqualTo(1199);
    }

    @Test
    void shouldApplyAndWaitUntilTheAgentReportsSyncedAndExitWith4AtTheTimeout(@TempDir Path dir) throws Exception {
        String name = "wait-" + UUID.randomUUID().toString().substring(0, 6);
        Path file = yaml(dir, "kind: WebApp\nmetadata: {name: " + name + "}\nspec: {image: nginx}\n");

        Run late = cli("apply", "--wait", "--timeout", "2", "-f", file.toString());
        Run dryRun = cli("apply", "--wait", "--dry-run", "-f", file.toString());
        assertThat(late.exit()).as(late.out() + late.err()).isEqualTo(StatesyncCli.EXIT_TIMEOUT);
        assertThat(late.err()).contains("timeout: WebApp/default/" + name + " is stored but not Synced");
        assertThat(dryRun.exit()).isEqualTo(StatesyncCli.EXIT_USAGE);

        try (io.statesync.topology.InTestAgent agent = new io.statesync.topology.InTestAgent(
                EmbeddedClusterExtension.bootstrapServers(), new io.statesync.topology.TopologySerdes(new AppConfig(config)),
                new io.statesync.topology.TopicNames((String) config.get(AppConfig.TOPIC_PREFIX)))) {
            Path changed = yaml(dir, "kind: WebApp\nmetadata: {name: " + name + "}\nspec: {image: nginx:2}\n");
            Run waited = cli("apply", "--wait", "--timeout", "60", "-f", changed.toString());

            assertThat(waited.exit()).as(waited.out() + waited.err()).isZero();
            assertThat(waited.out()).contains("WebApp/default/" + name + " configured, Synced");
            Run got = cli("get", "WebApp/default/" + name, "-o", "json");
            JsonNode r = new ObjectMapper().readTree(got.out());
            assertThat(r.path("status").path("syncStatus").asText()).isEqualTo("Synced");
            assertThat(r.path("status").path("observedGeneration").asLong()).isEqualTo(r.path("metadata").path("generation").asLong());
        }
    }

    @Test
    void shouldGetDiffAndDiagnoseAResource(@TempDir Path dir) throws IOException {
        String name = "one-" + UUID.randomUUID().toString().substring(0, 6);
        assertThat(cli("apply", "-f", yaml(dir, "kind: WebApp\nmetadata: {name: " + name + "}\nspec: {image: nginx}\n").toString()).exit())
            .isZero();
        Run get = cli("get", "WebApp/default/" + name, "-o", "json");
        assertThat(get.exit()).as(get.err()).isZero();
        JsonNode r = new ObjectMapper().readTree(get.out());
        assertThat(r.path("spec").path("image").asText()).isEqualTo("nginx");
        assertThat(cli("get", "WebApp/default/" + name).out()).contains(name);
        Run diff = cli("diff", "WebApp/default/" + name);
        assertThat(diff.exit()).as(diff.err()).isZero();
        assertThat(diff.out()).contains("PATH");
        Run diagnose = cli("diagnose", "WebApp/default/" + name);
        assertThat(diagnose.exit()).as(diagnose.err()).isZero();
        assertThat(diagnose.out()).contains("generationLag").contains("health:         Missing");
    }

    @Test
    void shouldServerSideApplyUnderAFieldManagerAndExitWith3OnAnotherManagersField(@TempDir Path dir) throws IOException {
        String name = "ssa-" + UUID.randomUUID().toString().substring(0, 6);
        Path mine = yaml(dir, "kind: WebApp\nmetadata: {name: " + name + ", labels: {team: a}}\nspec: {image: nginx, replicas: 1}\n");
        Run first = cli("apply", "--server-side", "-f", mine.toString());
        Run conflict = cli("apply", "--server-side", "--field-manager", "scaler", "-f",
            yaml(dir, "kind: WebApp\nmetadata: {name: " + name + "}\nspec: {replicas: 4}\n").toString());
        Run forced = cli("apply", "--server-side", "--field-manager", "scaler", "--force-conflicts", "-f",
            yaml(dir, "kind: WebApp\nmetadata: {name: " + name + "}\nspec: {replicas: 4}\n").toString());
        Run dropped = cli("apply", "--server-side", "-f",
            yaml(dir, "kind: WebApp\nmetadata: {name: " + name + "}\nspec: {image: nginx}\n").toString());
        JsonNode r = new ObjectMapper().readTree(cli("get", "WebApp/default/" + name, "-o", "json").out());

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("WebApp/default/" + name + " serverside-applied");
        assertThat(conflict.exit()).isEqualTo(StatesyncCli.EXIT_CONFLICT);
        assertThat(conflict.err()).contains("conflict with \"statesync\"").contains(".spec.replicas");
        assertThat(forced.exit()).as(forced.err()).isZero();
        assertThat(dropped.exit()).as(dropped.err()).isZero();
        assertThat(r.path("spec").path("replicas").asInt()).isEqualTo(4);
        assertThat(r.path("metadata").path("labels").has("team")).isFalse();
        assertThat(r.path("metadata").path("managedFields").toString()).contains("\"manager\":\"scaler\"")
            .contains("\"manager\":\"statesync\"");
    }

    @Test
    void shouldLabelAndAnnotateAResourceThroughAPreconditionedReadModifyWrite(@TempDir Path dir) throws IOException {
        String name = "meta-" + UUID.randomUUID().toString().substring(0, 6);
        cli("apply", "-f", yaml(dir, "kind: WebApp\nmetadata: {name: " + name + ", labels: {tier: web}}\nspec: {a: 1}\n").toString());
        String key = "WebApp/default/" + name;

        Run refused = cli("label", key, "tier=db");
        Run labelled = cli("label", "--overwrite", key, "tier=db", "env=prod");
        Run annotated = cli("annotate", key, "note=hello");
        JsonNode r = new ObjectMapper().readTree(cli("get", key, "-o", "json").out());

        assertThat(refused.exit()).isEqualTo(StatesyncCli.EXIT_ERROR);
        assertThat(labelled.exit()).as(labelled.err()).isZero();
        assertThat(annotated.exit()).as(annotated.err()).isZero();
        assertThat(r.path("metadata").path("labels").path("tier").asText()).isEqualTo("db");
        assertThat(r.path("metadata").path("labels").path("env").asText()).isEqualTo("prod");
        assertThat(r.path("metadata").path("annotations").path("note").asText()).isEqualTo("hello");
        assertThat(r.path("spec").path("a").asInt()).isEqualTo(1);
    }

    @Test
    void shouldExitWith3OnAConflictAnd1OnOtherErrors(@TempDir Path dir) throws IOException {
        String name = "cas-" + UUID.randomUUID().toString().substring(0, 6);
        cli("apply", "-f", yaml(dir, "kind: WebApp\nmetadata: {name: " + name + "}\nspec: {a: 1}\n").toString());
        Run stale = cli("apply", "-f", yaml(dir, "kind: WebApp\nmetadata: {name: " + name + ", resourceVersion: '999999'}\nspec: {a: 2}\n").toString());
        assertThat(stale.exit()).isEqualTo(StatesyncCli.EXIT_CONFLICT);
        assertThat(stale.err()).contains("Conflict");
        assertThat(cli("delete", "WebApp/default/" + name, "--resource-version", "999999").exit()).isEqualTo(StatesyncCli.EXIT_CONFLICT);
        assertThat(cli("get", "WebApp/default/missing-" + name).exit()).isEqualTo(StatesyncCli.EXIT_ERROR);
        assertThat(cli("get", "WebApp/default/x", "--server", "http://127.0.0.1:1").exit()).isEqualTo(StatesyncCli.EXIT_ERROR);
        assertThat(cli("delete", "WebApp/default/" + name).exit()).isZero();
    }

    @Test
    void shouldExitWith2OnUsageErrors() {
        assertThat(cli("get", "--no-such-option").exit()).isEqualTo(StatesyncCli.EXIT_USAGE);
        assertThat(cli("get", "not-a-key").exit()).isEqualTo(StatesyncCli.EXIT_USAGE);
    }

    @Test
    void shouldWatchTheCurrentObjects(@TempDir Path dir) throws IOException {
        String ns = "watch-" + UUID.randomUUID().toString().substring(0, 6);
        cli("apply", "-f", yaml(dir, "kind: WebApp\nmetadata: {name: w, namespace: " + ns + "}\nspec: {a: 1}\n").toString());
        Run watch = cli("watch", "-n", ns, "--max-events", "1", "--timeout", "20");
        assertThat(watch.exit()).as(watch.err()).isZero();
        assertThat(watch.out()).startsWith("ADDED").contains("WebApp/" + ns + "/w");
    }

    @Test
    void shouldApplyAndGetKindPolicies(@TempDir Path dir) throws IOException {
        String kind = "CliKind" + UUID.randomUUID().toString().substring(0, 4).replaceAll("[^a-z0-9]", "");
        Run apply = cli("kinds", "apply", "-f", yaml(dir, kind + ":\n  maxAttempts: 4\n  ignoredFields: [status]\n").toString());
        assertThat(apply.exit()).as(apply.err()).isZero();
        Run get = cli("kinds", "get", kind, "-o", "json");
        assertThat(get.exit()).as(get.err()).isZero();
        assertThat(get.out()).contains("\"maxAttempts\" : 4");
        assertThat(cli("kinds", "get").out()).contains(kind);
    }

    /**
     * The watch keeps going through dropped connections and a server outage (a relay in front of the server is cut,
     * then stops listening and comes back), and prints every change exactly once.
     */
    @Test
    void shouldReconnectAfterDroppedConnectionsAndAnOutageAndPrintEveryChangeExactlyOnce() throws Exception {
        String ns = "rc-" + UUID.randomUUID().toString().substring(0, 6);
        ApiClient api = new ApiClient(server, TOKEN);
        for (int i = 0; i < 5; i++) {
            write(api, ns, "o" + i, 0);
        }
        ClosableOutput out = new ClosableOutput();
        StringWriter err = new StringWriter();
        try (TcpRelay proxy = new TcpRelay(app.httpPort())) {
            int[] exit = {-1};
            Thread watch = new Thread(() -> exit[0] = cli(out, err, "watch", "-n", ns, "-o", "json", "--server", proxy.url(),
                "--token", TOKEN, "--timeout", "300"), "cli-watch");
            watch.setDaemon(true);
            watch.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().lines().count() >= 5);
            writeAll(api, ns, 1, "o0", "o1", "o2", "o3", "o4");
            proxy.cut();
            writeAll(api, ns, 2, "o0", "o1", "o2", "o5");
            // Stopping before the watch is back would fold the cut and the outage into one gap.
            await().atMost(Duration.ofSeconds(30)).until(() -> proxy.accepted() >= 2);
            proxy.stop();
            writeAll(api, ns, 3, "o3", "o6");
            assertThat(api.delete(ApiClient.resourcePath("WebApp/" + ns + "/o4"), null).status()).isEqualTo(200);
            // The drop after the cut, the drop when the relay stopped, and at least one refused attempt after it.
            await().atMost(Duration.ofSeconds(30)).until(() -> err.toString().split("reconnecting in", -1).length > 3);
            proxy.start();
            writeAll(api, ns, 4, "o0", "o7");
            assertThat(api.delete(ApiClient.resourcePath("WebApp/" + ns + "/o1"), null).status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> new WatchOutput(out.toString()).held().equals(listed(api, ns)));
            Thread.sleep(1_000);
            assertThat(proxy.accepted()).as("it reconnected").isGreaterThanOrEqualTo(3);
            assertThat(err.toString()).contains("reconnecting in").doesNotContain("re-listed");
            new WatchOutput(out.toString()).assertEveryChangeOnce(
                ResourceRecords.after(new AppConfig(config), new long[3], ns), List.of("/o5", "/o6", "/o7"));
            // The watch ends when its output fails, at the next event it prints.
            out.close();
            write(api, ns, "o0", 5);
            watch.join(30_000);
            assertThat(watch.isAlive()).as("the watch stops once its output is closed; stderr:%n%s", err).isFalse();
            assertThat(exit[0]).isZero();
        }
    }

    /** A writer whose content can be read while it is written, and which fails every write once closed. */
    private static final class ClosableOutput extends Writer {
        private final StringBuffer text = new StringBuffer();
        private volatile boolean closed;

        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("closed");
            }
            text.append(buf, off, len);
        }

        @Override
        public void flush() throws IOException {
            if (closed) {
                throw new IOException("closed");
            }
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }

    @Test
    void shouldStartAgainFromTheCurrentObjectsAndSaySoWhenThePositionIsGone() throws Exception {
        String ns = "gone-" + UUID.randomUUID().toString().substring(0, 6);
        write(new ApiClient(server, TOKEN), ns, "kept", 0);
        String otherPartitionCount = new WatchPosition(new long[] {0, 0}).encode();
        Run watch = cli("watch", "-n", ns, "--resource-version", otherPartitionCount, "--max-events", "1", "--timeout", "20");
        assertThat(watch.exit()).as(watch.err()).isZero();
        assertThat(watch.err()).contains("re-listed").contains("410");
        assertThat(watch.out()).startsWith("ADDED").contains("WebApp/" + ns + "/kept");
    }

    private static void writeAll(ApiClient api, String ns, int n, String... names) throws IOException {
        for (String name : names) {
            write(api, ns, name, n);
        }
    }

    private static void write(ApiClient api, String ns, String name, int n) throws IOException {
        ObjectNode body = new ObjectMapper().createObjectNode();
        body.putObject("spec").put("n", n);
        assertThat(api.put(ApiClient.resourcePath("WebApp/" + ns + "/" + name), body).status()).isIn(200, 201);
    }

    private static Map<String, String> listed(ApiClient api, String ns) throws IOException {
        Map<String, String> held = new TreeMap<>();
        for (JsonNode item : api.get("/api/v1/resources?limit=5000&namespace=" + ns).json().path("items")) {
            JsonNode m = item.path("metadata");
            held.put(item.path("kind").asText() + "/" + m.path("namespace").asText() + "/" + m.path("name").asText(),
                m.path("resourceVersion").asText());
        }
        return held;
    }

    /** Applies an owner and two dependents in a fresh namespace; returns the namespace. */
    private static String ownerWithChildren(Path dir) throws IOException {
        String ns = "own-" + UUID.randomUUID().toString().substring(0, 6);
        Run owner = cli("apply", "--no-progress", "-f", yaml(dir, "apiVersion: statesync.io/v1\nkind: WebApp\nmetadata:\n  name: shop\n"
            + "  namespace: " + ns + "\nspec:\n  image: nginx:1.20\n").toString());
        assertThat(owner.exit()).as(owner.err()).isZero();
        String uid = new ApiClient(server, TOKEN).get("/api/v1/resources/WebApp/" + ns + "/shop").json()
            .path("metadata").path("uid").asText();
        StringBuilder docs = new StringBuilder();
        for (String kind : List.of("Deployment", "Service")) {
            docs.append("---\napiVersion: statesync.io/v1\nkind: ").append(kind).append("\nmetadata:\n  name: shop-")
                .append(kind.toLowerCase()).append("\n  namespace: ").append(ns).append("\n  ownerReferences:\n")
                .append("  - {apiVersion: statesync.io/v1, kind: WebApp, name: shop, uid: ").append(uid)
                .append(", controller: true, blockOwnerDeletion: true}\nspec:\n  replicas: 2\n");
        }
        Run children = cli("apply", "--no-progress", "-f", yaml(dir, docs.toString()).toString());
        assertThat(children.exit()).as(children.err()).isZero();
        return ns;
    }

    @Test
    void shouldShowTheOwnershipTreeAndTheOwnersAndDependentsInDescribe(@TempDir Path dir) throws IOException {
        String ns = ownerWithChildren(dir);

        Run tree = cli("tree", "WebApp/" + ns + "/shop");
        Run child = cli("describe", "Deployment/" + ns + "/shop-deployment");
        Run owner = cli("describe", "WebApp/" + ns + "/shop");

        assertThat(tree.exit()).as(tree.err()).isZero();
        assertThat(tree.out()).startsWith("WebApp/" + ns + "/shop  ")
            .contains("├── Deployment/" + ns + "/shop-deployment  ").contains("└── Service/" + ns + "/shop-service  ");
        assertThat(child.out()).containsPattern("Controlled By:\\s+WebApp/shop");
        assertThat(owner.out()).contains("Dependents:").containsPattern("Deployment\\s+shop-deployment")
            .containsPattern("Service\\s+shop-service");
    }

    @Test
    void shouldKeepTheDependentsWithoutTheirReferenceWhenDeletingWithCascadeOrphan(@TempDir Path dir) throws IOException {
        String ns = ownerWithChildren(dir);

        Run delete = cli("delete", "--cascade=orphan", "WebApp/" + ns + "/shop");

        assertThat(delete.exit()).as(delete.err()).isZero();
        ApiClient api = new ApiClient(server, TOKEN);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(api.get("/api/v1/resources/WebApp/" + ns + "/shop").status()).isEqualTo(404);
            ApiClient.Response dep = api.get("/api/v1/resources/Deployment/" + ns + "/shop-deployment");
            assertThat(dep.status()).as(dep.body()).isEqualTo(200);
            assertThat(dep.json().path("metadata").has("ownerReferences")).as(dep.body()).isFalse();
            assertThat(dep.json().path("metadata").path("deletionTimestamp").isTextual()).as(dep.body()).isFalse();
        });
    }

    @Test
    void shouldCollectTheDependentsOfADeleteWithAForegroundDeleteOptionsBody(@TempDir Path dir) throws IOException {
        String ns = ownerWithChildren(dir);
        ApiClient api = new ApiClient(server, TOKEN);

        ApiClient.Response bad = api.send("DELETE", "/api/v1/resources/WebApp/" + ns + "/shop?propagationPolicy=Sideways",
            null, null, Map.of());
        ApiClient.Response ok = api.send("DELETE", "/api/v1/resources/WebApp/" + ns + "/shop",
            "{\"kind\":\"DeleteOptions\",\"propagationPolicy\":\"Foreground\"}", "application/json", Map.of());

        assertThat(bad.status()).isEqualTo(422);
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(api.get("/api/v1/resources/Deployment/" + ns + "/shop-deployment").status()).isEqualTo(404);
            assertThat(api.get("/api/v1/resources/Service/" + ns + "/shop-service").status()).isEqualTo(404);
            assertThat(api.get("/api/v1/resources/WebApp/" + ns + "/shop").status()).isEqualTo(404);
        });
    }

    @Test
    void shouldRefuseTwoControllerOwnersWith422() throws IOException {
        ApiClient api = new ApiClient(server, TOKEN);
        String body = "{\"metadata\":{\"ownerReferences\":["
            + "{\"kind\":\"WebApp\",\"name\":\"a\",\"uid\":\"1\",\"controller\":true},"
            + "{\"kind\":\"WebApp\",\"name\":\"b\",\"uid\":\"2\",\"controller\":true}]},\"spec\":{}}";

        ApiClient.Response r = api.send("PUT", "/api/v1/resources/Deployment/default/two-controllers", body,
            "application/json", Map.of());

        assertThat(r.status()).as(r.body()).isEqualTo(422);
        assertThat(r.body()).contains("only one reference can have controller set to true");
    }
}
