package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Watches a client asks for over WebSocket first, as fabric8 does by default: the upgrade is answered as a server
 * without WebSocket support answers it, so that a default fabric8 client informs and watches at once over the HTTP
 * stream; the upgrade holds no place under the watch caps, and is refused as the HTTP watch is.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KubeWebSocketWatchIT {

    private static final String KIND = "Socket";
    private static final String PATH = "/apis/statesync.io/v1/namespaces/default/sockets?watch=1";
    /** Far below fabric8's retries of an upgrade answered 5xx, far above a start that falls back to HTTP at once. */
    private static final Duration PROMPT = Duration.ofSeconds(8);

    @Test
    void shouldStartADefaultFabric8InformerAndWatchesAtOnceAndDeliverTheirEvents() throws Exception {
        try (KubeTestApp app = KubeTestApp.start(KubeTestApp.config("kube-ws-watch"));
             KubernetesClient client = defaultClient(app.base())) {
            app.putKind(KIND, Map.of());
            sockets(client).resource(socket("first")).create();

            long t0 = System.nanoTime();
            SharedIndexInformer<GenericKubernetesResource> informer = sockets(client).inform();
            await().atMost(PROMPT).until(informer::hasSynced);
            assertThat(since(t0)).as("the informer's start").isLessThan(PROMPT);
            assertThat(informer.getStore().list()).extracting(r -> r.getMetadata().getName()).containsExactly("first");

            BlockingQueue<String> objects = new LinkedBlockingQueue<>();
            BlockingQueue<String> namespaces = new LinkedBlockingQueue<>();
            t0 = System.nanoTime();
            try (Watch watch = sockets(client).watch(recorder(objects)); Watch nsWatch = client.namespaces().watch(recorder(namespaces))) {
                assertThat(since(t0)).as("two watches' start").isLessThan(PROMPT);
                sockets(client).resource(socket("second")).create();
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("socket-ns").endMetadata().build())
                    .create();

                assertThat(next(objects)).isEqualTo("ADDED first");
                assertThat(next(objects)).isEqualTo("ADDED second");
                String ns;
                do {
                    ns = next(namespaces);
                } while (ns != null && !ns.equals("ADDED socket-ns"));
                assertThat(ns).isEqualTo("ADDED socket-ns");
                await().atMost(PROMPT).until(() -> informer.getStore().list().size() == 2);
            }
            informer.close();
        }
    }

    @Test
    void shouldAnswerAnUpgradeWith200AndNoStreamSoThatItHoldsNoPlaceUnderTheWatchCaps() throws Exception {
        Map<String, Object> config = KubeTestApp.config("kube-ws-caps");
        config.put(ServerConfig.WATCH_MAX_OPEN_PER_TOKEN, 2);
        List<Socket> unread = new ArrayList<>();
        List<InputStream> watches = new ArrayList<>();
        try (KubeTestApp app = KubeTestApp.start(config)) {
            app.putKind(KIND, Map.of());
            // Upgrades whose answers nobody reads, kept open, some asking for the channel subprotocols.
            for (int i = 0; i < 20; i++) {
                unread.add(i % 2 == 0 ? app.upgrade(PATH, KubeTestApp.READER)
                    : app.upgrade(PATH, KubeTestApp.READER, "Sec-WebSocket-Protocol: base64.channel.k8s.io, v4.channel.k8s.io"));
            }
            HttpClient http = HttpClient.newHttpClient();
            for (int i = 0; i < 2; i++) {
                HttpResponse<InputStream> w = httpWatch(http, app.base());
                assertThat(w.statusCode()).as("HTTP watch %d beside the upgrades", i).isEqualTo(200);
                watches.add(w.body());
            }
            HttpResponse<InputStream> third = httpWatch(http, app.base());
            third.body().close();
            assertThat(third.statusCode()).as("a watch past the token's cap").isEqualTo(429);
            assertThat(app.upgradeAnswer(PATH, KubeTestApp.READER)).as("an upgrade past the token's cap")
                .startsWith("HTTP/1.1 429").containsIgnoringCase("Retry-After: ").contains("\"reason\":\"TooManyRequests\"");

            for (Socket s : unread) {
                String answer = KubeTestApp.answer(s);
                assertThat(answer).startsWith("HTTP/1.1 200").containsIgnoringCase("Content-Length: 0\r\n")
                    .doesNotContainIgnoringCase("Sec-WebSocket-Accept").doesNotContainIgnoringCase("Sec-WebSocket-Protocol")
                    .doesNotContainIgnoringCase("Upgrade: websocket").doesNotContainIgnoringCase("Set-Cookie");
            }
        } finally {
            for (Socket s : unread) {
                s.close();
            }
            for (InputStream in : watches) {
                in.close();
            }
        }
    }

    @Test
    void shouldRefuseAnUpgradeWithoutAReadersTokenWithTheStatusTheHttpWatchGetsAndSurviveMalformedOnes() throws Exception {
        try (KubeTestApp app = KubeTestApp.start(KubeTestApp.config("kube-ws-refused"))) {
            app.putKind(KIND, Map.of());
            HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(app.base() + PATH))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            for (String token : new String[] {null, "wrong"}) {
                assertThat(app.upgradeAnswer(PATH, token)).as("token %s", token).startsWith("HTTP/1.1 401")
                    .contains("\"kind\":\"Status\"").contains("\"code\":401").contains("\"reason\":\"Unauthorized\"");
            }

            assertThat(raw(app, "GET " + PATH + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KubeTestApp.READER
                + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 99\r\n\r\n"))
                .as("an upgrade of an unknown version without a key").startsWith("HTTP/1.1 200")
                .doesNotContainIgnoringCase("Sec-WebSocket-Accept");
            assertThat(raw(app, "GET " + PATH + " HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: "
                + "x".repeat(64 * 1024) + "\r\n\r\n")).as("an oversized upgrade").startsWith("HTTP/1.1 431");
            assertThat(app.send("GET", PATH.replace("?watch=1", ""), null, null).statusCode()).as("served after them").isEqualTo(200);
        }
    }

    /** The answer to {@code request} sent as it is. */
    private static String raw(KubeTestApp app, String request) throws java.io.IOException {
        try (Socket s = new Socket("127.0.0.1", app.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            return KubeTestApp.answer(s);
        }
    }

    private static HttpResponse<InputStream> httpWatch(HttpClient http, String base) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + PATH)).header("Authorization", "Bearer " + KubeTestApp.READER)
            .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** A fabric8 client with nothing set but where, who and which namespace: its watches ask for a WebSocket first. */
    private static KubernetesClient defaultClient(String base) {
        Config c = new ConfigBuilder(Config.empty()).withMasterUrl(base).withOauthToken(KubeTestApp.WRITER)
            .withNamespace("default").build();
        return new KubernetesClientBuilder().withConfig(c).build();
    }

    private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> sockets(
        KubernetesClient client) {
        return client.genericKubernetesResources("statesync.io/v1", KIND);
    }

    private static GenericKubernetesResource socket(String name) {
        return new GenericKubernetesResourceBuilder().withApiVersion("statesync.io/v1").withKind(KIND)
            .withNewMetadata().withName(name).withNamespace("default").endMetadata()
            .addToAdditionalProperties("spec", Map.of("n", 1)).build();
    }

    private static <T extends HasMetadata> Watcher<T> recorder(BlockingQueue<String> events) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T resource) {
                if (action != Action.BOOKMARK) {
                    events.add(action + " " + resource.getMetadata().getName());
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                events.add("CLOSED " + cause);
            }
        };
    }

    private static String next(BlockingQueue<String> events) throws InterruptedException {
        return events.poll(PROMPT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
