package io.statesync.kube;

import static io.statesync.kube.KubeTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import io.statesync.embedded.TcpRelay;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * fabric8's SharedIndexInformer, which resumes its watch from the resourceVersion of the last object it received, as
 * client-go's reflector does: through dropped connections and a restart of statesync it must see every change once,
 * and after a position the server can no longer replay it must list again and end equal to the server.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KubeInformerIT {

    private static final String KIND = "Tick";
    /** Nothing but the test's own writes changes the objects: no correction deadline or staleness expires meanwhile. */
    private static final Map<String, Object> QUIET = Map.of("correctionDeadlineMs", 3_600_000L, "resyncPeriodMs", 3_600_000L,
        "stalenessBoundMs", 3_600_000L);

    /** What the informer delivered: per object, the spec counters in order, and deliveries of a version already seen. */
    private static final class Seen implements ResourceEventHandler<GenericKubernetesResource> {
        final Map<String, List<Long>> counters = new ConcurrentHashMap<>();
        final Map<String, Long> versions = new ConcurrentHashMap<>();
        final AtomicInteger repeated = new AtomicInteger();

        @Override
        public void onAdd(GenericKubernetesResource obj) {
            record(obj);
        }

        @Override
        public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
            record(newObj);
        }

        @Override
        public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
            counters.remove(obj.getMetadata().getName());
        }

        private void record(GenericKubernetesResource obj) {
            String name = obj.getMetadata().getName();
            long version = objectVersion(obj.getMetadata().getResourceVersion());
            Long before = versions.put(name, version);
            if (before != null && before >= version) {
                repeated.incrementAndGet();
            }
            counters.computeIfAbsent(name, n -> java.util.Collections.synchronizedList(new ArrayList<>())).add(counter(obj));
        }
    }

    @Test
    void shouldSeeEveryChangeOnceThroughADroppedConnectionAndARestart() throws Exception {
        int objects = 1_000;
        int rounds = 5;
        try (KubeTestApp app = KubeTestApp.start(KubeTestApp.config("kube-informer"))) {
            app.putKind(KIND, QUIET);
            writeRound(app, "inf", objects, 0);
            try (TcpRelay relay = new TcpRelay(app.port());
                 KubernetesClient client = KubeTestApp.client(relay.url(), "inf")) {
                Seen seen = new Seen();
                SharedIndexInformer<GenericKubernetesResource> informer = client.genericKubernetesResources("statesync.io/v1", KIND)
                    .inNamespace("inf").inform(seen, 0);
                await().atMost(Duration.ofSeconds(60)).until(informer::hasSynced);
                for (int round = 1; round <= rounds; round++) {
                    // Connections dropped while events stream in: the informer resumes from the last object it received.
                    try (Cutter cutter = round <= 2 ? new Cutter(relay) : null) {
                        writeRound(app, "inf", objects, round);
                        awaitCounters(informer, objects, round);
                    }
                    if (round == 3) {
                        awaitCounters(informer, objects, round);
                        // A bookmark carries the informer past the last commit markers, the position a clean stop snapshots.
                        Thread.sleep(1_500);
                        app.restart();
                    }
                }
                awaitCounters(informer, objects, rounds);

                assertThat(cache(informer)).isEqualTo(serverList(app, "inf"));
                assertThat(seen.repeated.get()).as("versions delivered twice").isZero();
                List<Long> every = List.of(0L, 1L, 2L, 3L, 4L, 5L);
                assertThat(seen.counters).hasSize(objects).allSatisfy((name, counters) -> assertThat(counters).as(name).isEqualTo(every));
                informer.close();
            }
        }
    }

    /** Cuts every connection through the relay every 100 ms until closed. */
    private static final class Cutter implements AutoCloseable {
        private final java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();

        Cutter(TcpRelay relay) {
            timer.scheduleAtFixedRate(relay::cut, 100, 100, java.util.concurrent.TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    @Test
    void shouldListAgainWhenItsPositionHasLeftTheChangeRing() throws Exception {
        Map<String, Object> config = KubeTestApp.config("kube-expired");
        config.put(ServerConfig.VIEW_RING_CAPACITY, 50);
        try (KubeTestApp app = KubeTestApp.start(config)) {
            app.putKind(KIND, QUIET);
            writeRound(app, "exp", 100, 0);
            try (TcpRelay relay = new TcpRelay(app.port());
                 KubernetesClient client = KubeTestApp.client(relay.url(), "exp")) {
                SharedIndexInformer<GenericKubernetesResource> informer = client.genericKubernetesResources("statesync.io/v1", KIND)
                    .inNamespace("exp").inform(new Seen(), 0);
                await().atMost(Duration.ofSeconds(60)).until(informer::hasSynced);
                String before = json(app.send("GET", "/apis/statesync.io/v1/namespaces/exp/ticks", null, null))
                    .path("metadata").path("resourceVersion").asText();
                relay.stop();
                writeRound(app, "exp", 100, 1);
                writeRound(app, "exp", 100, 2);
                relay.start();

                HttpResponse<String> expired = app.send("GET", "/apis/statesync.io/v1/namespaces/exp/ticks?watch=true&timeoutSeconds=2"
                    + "&resourceVersion=" + before, null, null);
                assertThat(json(firstLine(expired)).path("type").asText()).isEqualTo("ERROR");
                assertThat(json(firstLine(expired)).path("object").path("reason").asText()).isEqualTo("Expired");
                assertThat(json(firstLine(expired)).path("object").path("code").asInt()).isEqualTo(410);
                awaitCounters(informer, 100, 2);
                assertThat(cache(informer)).isEqualTo(serverList(app, "exp"));
                informer.close();
            }
        }
    }

    private static HttpResponse<String> firstLine(HttpResponse<String> r) {
        return KubeClientIT.firstLine(r);
    }

    /** Sets every object's counter to {@code round} with bulk writes through the server's own API. */
    private static void writeRound(KubeTestApp app, String namespace, int objects, long round) {
        for (int from = 0; from < objects; from += 500) {
            List<Object> items = new ArrayList<>();
            for (int i = from; i < Math.min(objects, from + 500); i++) {
                items.add(Map.of("op", "put", "object", Map.of("kind", KIND, "metadata", Map.of("namespace", namespace,
                    "name", String.format("t-%04d", i)), "spec", Map.of("n", round))));
            }
            HttpResponse<String> r = app.send("POST", "/api/v1/bulk", Map.of("apiVersion", "statesync.io/v1", "kind", "BulkWrite",
                "items", items), "application/json");
            assertThat(json(r).path("summary").path("failed").asInt()).as(r.body()).isZero();
        }
    }

    private static void awaitCounters(SharedIndexInformer<GenericKubernetesResource> informer, int objects, long round) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> informer.getStore().list().size() == objects
            && informer.getStore().list().stream().allMatch(o -> counter(o) == round));
    }

    /** name -> counter of what the informer holds. */
    private static Map<String, Long> cache(SharedIndexInformer<GenericKubernetesResource> informer) {
        Map<String, Long> out = new TreeMap<>();
        informer.getStore().list().forEach(o -> out.put(o.getMetadata().getName(), counter(o)));
        return out;
    }

    private static Map<String, Long> serverList(KubeTestApp app, String namespace) {
        Map<String, Long> out = new TreeMap<>();
        for (JsonNode o : json(app.send("GET", "/apis/statesync.io/v1/namespaces/" + namespace + "/ticks", null, null)).path("items")) {
            out.put(o.path("metadata").path("name").asText(), o.path("spec").path("n").asLong());
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static long counter(GenericKubernetesResource o) {
        return ((Number) ((Map<String, Object>) o.getAdditionalProperties().get("spec")).get("n")).longValue();
    }

    /** The object's own per-key version inside the Kubernetes API's resourceVersion token. */
    static long objectVersion(String token) {
        try {
            return KubeTestApp.JSON.readTree(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8))
                .path("r").asLong();
        } catch (java.io.IOException e) {
            throw new AssertionError("not a token: " + token, e);
        }
    }
}
