package io.statesync.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
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
        p.put(AppConfig.TOPIC_PARTITIONS, 3);
        p.put(AppConfig.NUM_STREAM_THREADS, 1);
        p.put(AppConfig.COMMIT_INTERVAL_MS, 50L);
        p.put(AppConfig.HTTP_PORT, 0);
        p.put(AppConfig.STATE_DIR, Files.createTempDirectory("statesync-cli-it").toString());
        p.put(AppConfig.AUTH_TOKENS, TOKEN + ":writer");
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
        List<String> all = new ArrayList<>(List.of(args));
        if (all.size() > 0 && !all.contains("--server")) {
            int at = all.get(0).equals("kinds") ? 2 : 1;
            all.addAll(at, List.of("--server", server, "--token", TOKEN));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = StatesyncCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
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
        assertThat(list.out().lines().findFirst().orElse("")).contains("SYNC", "GEN", "OBSERVED-GEN");
        assertThat(list.out()).contains("app-0", "app-1", "app-2");

        Run yamlList = cli("list", "-n", ns, "-o", "yaml");
        assertThat(yamlList.out()).contains("kind: ResourceList").contains("name: app-2");
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
        assertThat(diagnose.out()).contains("generationLag");
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
}
