package io.statesync.launcher;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.embedded.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code statesync up} of this build on a data directory that the release before group-qualified keys wrote (broker
 * logs, registry database and Streams state, unpacked from {@code upgrade/previous-release-data.tar.gz}; how it was
 * made is in the README beside it, and {@code manifest.json} lists what that release served just before it stopped).
 * Every old key must read back with its identity, take new writes, be reconciled, show in a watch, and live beside
 * keys of other API groups.
 */
class UpgradeFromPreviousReleaseIT {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workDir;

    private UpProcess up;

    @AfterEach
    void killLeftovers() {
        if (up != null) {
            up.kill();
        }
    }

    @Test
    void shouldServeReconcileAndWatchEveryKeyThePreviousReleaseWroteBesideNewGroupQualifiedKeys() throws Exception {
        JsonNode manifest = JSON.readTree(resource("manifest.json"));
        Path dataDir = unpackFixture();
        up = UpProcess.start(workDir, dataDir, UpProcess.freePort(), UpProcess.freePort(), UpProcess.freePort(), "up.log")
            .awaitReady();

        Map<String, JsonNode> before = new HashMap<>();
        manifest.path("resources").forEach(r -> before.put(r.path("key").asText(), r));
        for (JsonNode old : before.values()) {
            assertReadsAsThePreviousReleaseServedIt(old);
        }
        assertTheDemoAgentKeepsWhatItSyncedSynced(before.values());
        assertStaysDeleted(manifest.path("deleted"));
        assertKindPoliciesStillApply(manifest);
        long highestOld = before.values().stream().mapToLong(r -> r.path("resourceVersion").asLong()).max().orElseThrow();

        assertAWatchFromTheStartListsEveryOldKey(before.keySet(), manifest.path("deleted"));
        assertAKubernetesWatchOfEachKindListsItsOldObjects(before.values());
        assertAWriteToAnOldKeyIsAcceptedAndReconciled(before, highestOld);
        assertGroupQualifiedKeysLiveBesideTheOldOnes(before);
        assertNoRecordWentToTheDeadLetterTopic();

        up.stopWithSigtermAndExpectNothingLeft();
    }

    /** The fixture, unpacked as {@code tar} wrote it, into the test's own directory. */
    private Path unpackFixture() throws Exception {
        Path archive = workDir.resolve("previous-release-data.tar.gz");
        try (InputStream in = UpgradeFromPreviousReleaseIT.class.getResourceAsStream("/upgrade/previous-release-data.tar.gz")) {
            assertThat(in).as("the fixture upgrade/previous-release-data.tar.gz on the test class path").isNotNull();
            Files.copy(in, archive);
        }
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", workDir.toString())
            .redirectErrorStream(true).start();
        String out = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).as("tar -xzf: %s", out).isZero();
        Path dataDir = workDir.resolve("data");
        assertThat(dataDir.resolve("kafka").resolve("kraft-combined-logs").resolve("meta.properties")).isRegularFile();
        assertControllerPortFree(dataDir.resolve("kafka").resolve("server.properties"));
        return dataDir;
    }

    /**
     * The broker's controller port is recorded in its metadata log at format time, so {@code up} keeps it on every
     * start of an existing directory; if another process holds it here, say so rather than fail on a bind error.
     */
    private static void assertControllerPortFree(Path serverProperties) throws Exception {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(serverProperties)) {
            p.load(in);
        }
        Matcher m = Pattern.compile("CONTROLLER://[^:]+:(\\d+)").matcher(p.getProperty("listeners", ""));
        assertThat(m.find()).as("a CONTROLLER listener in %s", p).isTrue();
        int port = Integer.parseInt(m.group(1));
        assertThat(FreePorts.inUse(port)).as("the fixture's controller port %s is taken by another process on this machine",
            port).isFalse();
    }

    /** Same uid, generation, labels and owners over REST and the Kubernetes API; the version has not gone back. */
    private void assertReadsAsThePreviousReleaseServedIt(JsonNode old) throws Exception {
        String key = old.path("key").asText();
        JsonNode[] now = new JsonNode[1];
        up.await(() -> "GET of " + key + " written by the previous release", READ_TIMEOUT,
            () -> (now[0] = up.get("/api/v1/resources/" + key)) != null);
        assertSameIdentity(key + " over REST", now[0], old);
        assertThat(now[0].path("spec")).as("spec of %s", key).isEqualTo(old.path("spec"));
        assertThat(now[0].path("metadata").path("resourceVersion").asLong()).as("resourceVersion of %s", key)
            .isGreaterThanOrEqualTo(old.path("resourceVersion").asLong());
        List<String> owners = new ArrayList<>();
        now[0].path("metadata").path("ownerReferences").forEach(o -> owners.add(o.path("kind").asText() + "/"
            + o.path("name").asText() + "/" + o.path("uid").asText()));
        List<String> oldOwners = new ArrayList<>();
        old.path("ownerReferences").forEach(o -> oldOwners.add(o.path("kind").asText() + "/" + o.path("name").asText()
            + "/" + o.path("uid").asText()));
        assertThat(owners).as("owner references of %s", key).isEqualTo(oldOwners);

        JsonNode kube = up.get(kubePath(old));
        assertThat(kube).as("Kubernetes API GET %s", kubePath(old)).isNotNull();
        assertThat(kube.path("apiVersion").asText()).isEqualTo("statesync.io/v1");
        assertSameIdentity(key + " over the Kubernetes API", kube, old);
    }

    /** The demo agent resumes on its old consumer group: what was Synced before the upgrade is Synced again. */
    private void assertTheDemoAgentKeepsWhatItSyncedSynced(Collection<JsonNode> before) throws Exception {
        for (JsonNode old : before) {
            if (!"Synced".equals(old.path("syncStatus").asText())) {
                continue;
            }
            String key = old.path("key").asText();
            AtomicReference<JsonNode> now = new AtomicReference<>();
            up.await(() -> key + " Synced after the upgrade (last read: " + now.get() + ")", SYNC_TIMEOUT, () -> {
                now.set(up.get("/api/v1/resources/" + key));
                return now.get() != null && "Synced".equals(now.get().path("status").path("syncStatus").asText());
            });
        }
    }

    private static void assertSameIdentity(String what, JsonNode now, JsonNode old) {
        JsonNode meta = now.path("metadata");
        assertThat(now.path("kind").asText()).as("kind of %s", what).isEqualTo(old.path("kind").asText());
        assertThat(meta.path("uid").asText()).as("uid of %s", what).isEqualTo(old.path("uid").asText());
        assertThat(meta.path("generation").asLong()).as("generation of %s", what).isEqualTo(old.path("generation").asLong());
        JsonNode labels = meta.path("labels").isMissingNode() ? JSON.createObjectNode() : meta.path("labels");
        assertThat(labels).as("labels of %s", what).isEqualTo(old.path("labels"));
    }

    private static String kubePath(JsonNode r) {
        return "/apis/statesync.io/v1/namespaces/" + r.path("namespace").asText() + "/"
            + r.path("kind").asText().toLowerCase(Locale.ROOT) + "s/" + r.path("name").asText();
    }

    private void assertStaysDeleted(JsonNode deleted) throws Exception {
        for (JsonNode key : deleted) {
            HttpResponse<String> r = up.send("GET", "/api/v1/resources/" + key.asText(), null, null);
            assertThat(r.statusCode()).as("GET of %s, deleted before the upgrade: %s", key.asText(), r.body()).isEqualTo(404);
        }
    }

    /** Every policy is still there, and a stored validation rule still refuses what it refused. */
    private void assertKindPoliciesStillApply(JsonNode manifest) throws Exception {
        JsonNode kinds = up.get("/api/v1/kinds");
        Set<String> served = new HashSet<>();
        kinds.path("items").forEach(p -> served.add(p.path("kind").asText()));
        manifest.path("kinds").forEach(k -> assertThat(served).as("kind policies served").contains(k.asText()));
        for (JsonNode check : manifest.path("policyChecks")) {
            String key = check.path("key").asText();
            ObjectNode body = JSON.createObjectNode();
            body.set("spec", check.path("spec"));
            HttpResponse<String> r = up.send("PUT", "/api/v1/resources/" + key, "application/json", body.toString());
            assertThat(r.statusCode()).as("PUT %s against its stored policy: %s", key, r.body()).isIn(400, 422);
            assertThat(r.body()).contains(check.path("refusedBecause").asText());
        }
        // A policy written before the upgrade takes a new version, under the schema of this build.
        HttpResponse<String> put = up.send("PUT", "/api/v1/kinds/Backup", "application/json", "{\"maxAttempts\": 5}");
        assertThat(put.statusCode()).as("PUT of an old kind policy: %s", put.body()).isIn(200, 201);
        up.await("the new Backup policy served", READ_TIMEOUT, () -> {
            JsonNode policy = up.get("/api/v1/kinds/Backup");
            return policy != null && policy.path("maxAttempts").asInt() == 5;
        });
    }

    /** A watch from no position starts with an ADDED for every live old key, and none for the deleted one. */
    private void assertAWatchFromTheStartListsEveryOldKey(Set<String> keys, JsonNode deleted) throws Exception {
        HttpResponse<String> watch = up.send("GET", "/api/v1/watch?timeoutSeconds=1", null, null);
        assertThat(watch.statusCode()).as(watch.body()).isEqualTo(200);
        Set<String> added = new HashSet<>();
        for (String line : watch.body().split("\n")) {
            if (line.startsWith("data: ")) {
                JsonNode event = JSON.readTree(line.substring("data: ".length()));
                if ("ADDED".equals(event.path("type").asText())) {
                    JsonNode o = event.path("object");
                    added.add(o.path("kind").asText() + "/" + o.path("metadata").path("namespace").asText() + "/"
                        + o.path("metadata").path("name").asText());
                }
            }
        }
        assertThat(added).as("ADDED events of a watch from the start").containsAll(keys);
        deleted.forEach(d -> assertThat(added).doesNotContain(d.asText()));
    }

    /** The Kubernetes API's watch of each old kind, across namespaces, starts with an ADDED for each old object. */
    private void assertAKubernetesWatchOfEachKindListsItsOldObjects(Collection<JsonNode> before) throws Exception {
        Map<String, Set<String>> expected = new HashMap<>();
        before.forEach(r -> expected.computeIfAbsent(r.path("kind").asText(), k -> new HashSet<>())
            .add(r.path("namespace").asText() + "/" + r.path("name").asText()));
        for (Map.Entry<String, Set<String>> kind : expected.entrySet()) {
            String path = "/apis/statesync.io/v1/" + kind.getKey().toLowerCase(Locale.ROOT) + "s?watch=true&timeoutSeconds=1";
            HttpResponse<String> watch = up.send("GET", path, null, null);
            assertThat(watch.statusCode()).as("%s: %s", path, watch.body()).isEqualTo(200);
            Set<String> added = new HashSet<>();
            for (String line : watch.body().split("\n")) {
                JsonNode event = line.isBlank() ? JSON.createObjectNode() : JSON.readTree(line);
                if ("ADDED".equals(event.path("type").asText())) {
                    JsonNode meta = event.path("object").path("metadata");
                    added.add(meta.path("namespace").asText() + "/" + meta.path("name").asText());
                }
            }
            assertThat(added).as("ADDED events of %s", path).isEqualTo(kind.getValue());
        }
    }

    /** Nothing the old release wrote, nor anything written since, was refused as undecodable. */
    private void assertNoRecordWentToTheDeadLetterTopic() throws Exception {
        HttpResponse<String> metrics = up.send("GET", "/metrics", null, null);
        assertThat(metrics.statusCode()).isEqualTo(200);
        for (String line : metrics.body().split("\n")) {
            if (line.startsWith("statesync_dlq_records_total")) {
                assertThat(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).as(line).isZero();
            }
        }
    }

    /**
     * A new spec for the old WebApp: same uid, the next generation, a resourceVersion above every old one, and the demo
     * agent carries it to the old Deployment key it rendered before the upgrade.
     */
    private void assertAWriteToAnOldKeyIsAcceptedAndReconciled(Map<String, JsonNode> before, long highestOld)
        throws Exception {
        JsonNode old = before.get("WebApp/default/shop");
        String body = "{\"metadata\":{\"labels\":" + old.path("labels") + "},\"spec\":{\"image\":\"nginx:1.27\",\"replicas\":3}}";
        HttpResponse<String> put = up.send("PUT", "/api/v1/resources/WebApp/default/shop", "application/json", body);
        assertThat(put.statusCode()).as("PUT of an old key: %s", put.body()).isEqualTo(200);
        JsonNode written = JSON.readTree(put.body()).path("metadata");
        assertThat(written.path("uid").asText()).isEqualTo(old.path("uid").asText());
        assertThat(written.path("generation").asLong()).isEqualTo(old.path("generation").asLong() + 1);
        assertThat(written.path("resourceVersion").asLong()).as("resourceVersion of a write after the upgrade")
            .isGreaterThan(highestOld);

        JsonNode oldChild = before.get("Deployment/default/shop-deployment");
        JsonNode[] child = new JsonNode[1];
        JsonNode[] app = new JsonNode[1];
        up.await(() -> "the new WebApp spec Synced onto its old Deployment (WebApp " + app[0] + ", Deployment " + child[0]
            + ")", SYNC_TIMEOUT, () -> {
                child[0] = up.get("/api/v1/resources/Deployment/default/shop-deployment");
                app[0] = up.get("/api/v1/resources/WebApp/default/shop");
                return child[0] != null && app[0] != null && child[0].path("spec").path("replicas").asInt() == 3
                    && "Synced".equals(app[0].path("status").path("syncStatus").asText())
                    && app[0].path("status").path("observedGeneration").asLong() >= written.path("generation").asLong();
            });
        assertThat(child[0].path("metadata").path("uid").asText()).as("the Deployment the previous release rendered")
            .isEqualTo(oldChild.path("uid").asText());
    }

    /**
     * A kind of another group, defined by a CustomResourceDefinition, whose object has the same namespace and name as
     * an old WebApp: both keys are served, each with its own uid.
     */
    private void assertGroupQualifiedKeysLiveBesideTheOldOnes(Map<String, JsonNode> before) throws Exception {
        String crd = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"widgets.example.com"},
             "spec":{"group":"example.com","scope":"Namespaced",
               "names":{"plural":"widgets","singular":"widget","kind":"Widget"},
               "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
                 "properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}""";
        HttpResponse<String> defined = up.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "application/json", crd);
        assertThat(defined.statusCode()).as(defined.body()).isEqualTo(201);
        String widget = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"shop\"},"
            + "\"spec\":{\"size\":3}}";
        AtomicReference<HttpResponse<String>> created = new AtomicReference<>();
        up.await(() -> "a Widget created once its definition is established (last answer: "
            + (created.get() == null ? null : created.get().body()) + ")", READ_TIMEOUT, () -> {
                created.set(up.send("POST", "/apis/example.com/v1/namespaces/default/widgets", "application/json", widget));
                return created.get() != null && created.get().statusCode() == 201;
            });

        JsonNode rest = up.get("/api/v1/resources/Widget.example.com/default/shop");
        assertThat(rest).as("the Widget under its group-qualified key").isNotNull();
        JsonNode webApp = up.get("/api/v1/resources/WebApp/default/shop");
        assertThat(webApp.path("metadata").path("uid").asText()).isEqualTo(before.get("WebApp/default/shop").path("uid").asText());
        assertThat(rest.path("metadata").path("uid").asText()).isNotEqualTo(webApp.path("metadata").path("uid").asText());
        JsonNode webApps = up.get("/api/v1/resources?kind=WebApp");
        Set<String> names = new HashSet<>();
        webApps.path("items").forEach(i -> names.add(i.path("metadata").path("namespace").asText() + "/"
            + i.path("metadata").path("name").asText()));
        assertThat(names).as("WebApps listed beside the Widget").containsExactlyInAnyOrder("default/shop", "team-a/blog");
    }

    private static byte[] resource(String name) throws Exception {
        try (InputStream in = UpgradeFromPreviousReleaseIT.class.getResourceAsStream("/upgrade/" + name)) {
            assertThat(in).as("upgrade/%s on the test class path", name).isNotNull();
            return in.readAllBytes();
        }
    }
}
