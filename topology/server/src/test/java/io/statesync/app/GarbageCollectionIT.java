package io.statesync.app;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The garbage collector across partitions and instances: owners with three dependents each, spread over the
 * partitions of two instances (one in this JVM, one a child JVM), deleted under each propagation policy while the
 * child is killed with SIGKILL in the middle of the collection. Afterwards no dependent names an owner that is gone,
 * none whose owner exists was deleted, and the orphaned ones have no owner reference. The number of owners is the
 * {@code statesync.gc.owners} system property.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class GarbageCollectionIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int OWNERS = Integer.getInteger("statesync.gc.owners", 300);
    private static final String[] POLICIES = {"Background", "Foreground", "Orphan", "Keep"};
    private static final String[] DEPENDENT_KINDS = {"Deployment", "Service", "ConfigMap"};
    private static final int CHUNK = 500;
    private static final Map<String, Object> FAST_FAILOVER = Map.of("streams.session.timeout.ms", 6_000,
        "streams.heartbeat.interval.ms", 1_500);

    private final HttpClient http = HttpClient.newHttpClient();
    private String base;

    @TempDir
    Path stateDir;
    @TempDir
    Path childStateDir;
    @TempDir
    Path logDir;

    @Test
    void shouldCollectExactlyTheDependentsOfDeletedOwnersUnderEveryPolicyAcrossAKilledInstance(EmbeddedCluster cluster)
            throws Exception {
        AppConfig config = ReconcilePipelineIT.itConfig(cluster, stateDir, "gc", 6);
        Map<String, Object> props = new HashMap<>(config.originals());
        props.putAll(FAST_FAILOVER);
        try (StatesyncApp a = new StatesyncApp(new AppConfig(props))) {
            a.start();
            base = "http://127.0.0.1:" + a.httpPort();
            Map<String, Object> child = new HashMap<>(FAST_FAILOVER);
            child.put(AppConfig.STATE_DIR, childStateDir.toString());
            ReconcilePipelineIT.ChildStatesync b = ReconcilePipelineIT.ChildStatesync.start(config, child, logDir.resolve("b.log"));
            try {
                // Both instances hold tasks, so owners and dependents are spread over both.
                await().atMost(Duration.ofSeconds(120)).until(() -> a.isRunning() && activeTasks(a) > 0 && activeTasks(a) < 6);
                Map<String, String> uids = createOwners();
                long created = System.nanoTime();
                createDependents(uids);
                long t0 = System.nanoTime();
                deleteOwners();
                b.kill();
                awaitCollected(uids);
                long collectMs = (System.nanoTime() - t0) / 1_000_000;
                long createMs = (t0 - created) / 1_000_000;
                // The bulk write of the dependents, in the same run, is the baseline the collection time is read against.
                System.out.printf("garbage collection of %d owners with %d dependents each: %d ms; writing the dependents: "
                    + "%d ms; ratio %.2f%n", OWNERS, DEPENDENT_KINDS.length, collectMs, createMs, (double) collectMs / createMs);
            } finally {
                if (b.isAlive()) {
                    b.kill();
                }
            }
        }
    }

    private static int activeTasks(StatesyncApp a) {
        return a.streams().metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
    }

    private static String owner(int i) {
        return "o-" + i;
    }

    private static String dependent(int i, int d) {
        return "o-" + i + "-" + DEPENDENT_KINDS[d].toLowerCase();
    }

    private Map<String, String> createOwners() throws Exception {
        List<JsonNode> items = new ArrayList<>();
        for (int i = 0; i < OWNERS; i++) {
            items.add(put("WebApp", owner(i), null, null));
        }
        Map<String, String> uids = new HashMap<>();
        for (JsonNode r : bulk(items)) {
            uids.put(r.path("object").path("metadata").path("name").asText(), r.path("object").path("metadata").path("uid").asText());
        }
        return uids;
    }

    private void createDependents(Map<String, String> uids) throws Exception {
        List<JsonNode> items = new ArrayList<>();
        for (int i = 0; i < OWNERS; i++) {
            for (int d = 0; d < DEPENDENT_KINDS.length; d++) {
                items.add(put(DEPENDENT_KINDS[d], dependent(i, d), owner(i), uids.get(owner(i))));
            }
        }
        bulk(items);
    }

    private void deleteOwners() throws Exception {
        List<JsonNode> items = new ArrayList<>();
        for (int i = 0; i < OWNERS; i++) {
            String policy = POLICIES[i % POLICIES.length];
            if (!policy.equals("Keep")) {
                ObjectNode item = JSON.createObjectNode().put("op", "delete").put("propagationPolicy", policy);
                item.putObject("object").put("kind", "WebApp").putObject("metadata").put("namespace", "default")
                    .put("name", owner(i));
                items.add(item);
            }
        }
        bulk(items);
    }

    private static JsonNode put(String kind, String name, String ownerName, String ownerUid) {
        ObjectNode item = JSON.createObjectNode().put("op", "put");
        ObjectNode object = item.putObject("object").put("kind", kind);
        ObjectNode meta = object.putObject("metadata").put("namespace", "default").put("name", name);
        if (ownerName != null) {
            meta.putArray("ownerReferences").addObject().put("apiVersion", "statesync.io/v1").put("kind", "WebApp")
                .put("name", ownerName).put("uid", ownerUid).put("controller", kind.equals("Deployment"))
                .put("blockOwnerDeletion", kind.equals("Deployment"));
        }
        object.putObject("spec").put("image", "nginx:1.20");
        return item;
    }

    /** Bulk writes in chunks; every item must succeed. */
    private List<JsonNode> bulk(List<JsonNode> items) throws Exception {
        List<JsonNode> results = new ArrayList<>();
        for (int from = 0; from < items.size(); from += CHUNK) {
            ObjectNode body = JSON.createObjectNode().put("kind", "BulkWrite");
            ArrayNode chunk = body.putArray("items");
            items.subList(from, Math.min(items.size(), from + CHUNK)).forEach(chunk::add);
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/bulk"))
                .timeout(Duration.ofSeconds(120)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            for (JsonNode result : JSON.readTree(r.body()).path("items")) {
                assertThat(result.path("code").asInt()).as(result.toString()).isBetween(200, 201);
                results.add(result);
            }
        }
        return results;
    }

    /**
     * Waits until the namespace holds exactly what the policies leave. A dependent deleted although it had to stay
     * cannot come back, so that fails at once; anything else may still be on its way.
     */
    private void awaitCollected(Map<String, String> uids) {
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            List<String> problems = problems(list(), uids);
            List<String> permanent = problems.stream().filter(p -> p.contains("was deleted although")).toList();
            if (!permanent.isEmpty()) {
                throw new IllegalStateException("dependents deleted that had to stay: " + permanent);
            }
            assertThat(problems).isEmpty();
        });
    }

    /** What is wrong with the namespace's resources: each message names one resource. */
    private static List<String> problems(Map<String, JsonNode> live, Map<String, String> uids) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < OWNERS; i++) {
            String policy = POLICIES[i % POLICIES.length];
            boolean ownerKept = policy.equals("Keep");
            if (live.containsKey("WebApp/" + owner(i)) != ownerKept) {
                out.add(owner(i) + (ownerKept ? " is gone" : " still exists"));
            }
            for (int d = 0; d < DEPENDENT_KINDS.length; d++) {
                JsonNode dep = live.get(DEPENDENT_KINDS[d] + "/" + dependent(i, d));
                boolean stays = ownerKept || policy.equals("Orphan");
                if (dep == null) {
                    if (stays) {
                        out.add(dependent(i, d) + " was deleted although " + (ownerKept ? "its owner exists" : "orphaned"));
                    }
                    continue;
                }
                JsonNode refs = dep.path("metadata").path("ownerReferences");
                if (!stays) {
                    out.add(dependent(i, d) + " is left although its owner is gone");
                } else if (policy.equals("Orphan") && !refs.isMissingNode() && !refs.isEmpty()) {
                    out.add(dependent(i, d) + " was orphaned but still names " + refs);
                } else if (ownerKept && (refs.size() != 1 || !refs.get(0).path("uid").asText().equals(uids.get(owner(i))))) {
                    out.add(dependent(i, d) + " lost its reference to its existing owner: " + refs);
                }
            }
        }
        return out;
    }

    /** Every resource of the namespace, as {@code kind/name}, through every page. */
    private Map<String, JsonNode> list() throws IOException, InterruptedException {
        Map<String, JsonNode> out = new HashMap<>();
        String cont = null;
        do {
            String q = "/api/v1/resources?namespace=default&limit=1000" + (cont == null ? "" : "&continue=" + cont);
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + q)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            JsonNode page = JSON.readTree(r.body());
            for (JsonNode item : page.path("items")) {
                out.put(item.path("kind").asText() + "/" + item.path("metadata").path("name").asText(), item);
            }
            JsonNode c = page.path("metadata").path("continue");
            cont = c.isTextual() ? java.net.URLEncoder.encode(c.asText(), java.nio.charset.StandardCharsets.UTF_8) : null;
        } while (cont != null);
        return out;
    }
}
