package io.statesync.kube;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The watch caps as Kubernetes' own Java client (fabric8) meets them: a watch past the token's cap is refused with a
 * 429 TooManyRequests Status, and watches whose clients went silent end after watch.min.request.timeout.ms at the
 * least and twice it at the most, after which the client's watch is admitted.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KubeWatchCapIT {

    private static final int READER_WATCHES = 2;
    private static final long MIN_REQUEST_TIMEOUT_MS = 2_000;
    private static final long SLACK_MS = 3_000;
    private static final String KIND = "Capped";

    @Test
    void shouldRefuseAFabric8WatchPastTheCapWithTooManyRequestsAndAdmitItOnceSilentWatchesTimeOut() throws Exception {
        Map<String, Object> config = KubeTestApp.config("kube-watch-cap");
        config.put(ServerConfig.WATCH_MAX_OPEN_PER_TOKEN, READER_WATCHES);
        config.put(ServerConfig.WATCH_MIN_REQUEST_TIMEOUT_MS, MIN_REQUEST_TIMEOUT_MS);
        List<InputStream> silent = new ArrayList<>();
        try (KubeTestApp app = KubeTestApp.start(config); KubernetesClient reader = readerClient(app.base())) {
            app.putKind(KIND, Map.of());
            String path = "/apis/statesync.io/v1/namespaces/default/" + KIND.toLowerCase() + "s?watch=1";
            HttpClient http = HttpClient.newHttpClient();
            long t0 = System.nanoTime();
            for (int i = 0; i < READER_WATCHES; i++) {
                HttpResponse<InputStream> w = http.send(HttpRequest.newBuilder(URI.create(app.base() + path))
                    .header("Authorization", "Bearer " + KubeTestApp.READER).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
                assertThat(w.statusCode()).as("silent watch %d, without timeoutSeconds", i).isEqualTo(200);
                silent.add(w.body());
            }

            assertThatThrownBy(() -> watch(reader).close()).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                assertThat(e.getCode()).isEqualTo(429);
                assertThat(e.getStatus().getCode()).isEqualTo(429);
            });
            assertThatThrownBy(() -> reader.genericKubernetesResources("statesync.io/v1", KIND).inNamespace("default").inform())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(429));
            // fabric8's JDK transport keeps no body of a refused upgrade, so the Status it carries is its own; the
            // server's answer to that upgrade, read here, is the Kubernetes Status.
            String upgrade = app.upgradeAnswer(path, KubeTestApp.READER);
            assertThat(upgrade).startsWith("HTTP/1.1 429").containsIgnoringCase("Retry-After: ")
                .contains("\"kind\":\"Status\"").contains("\"reason\":\"TooManyRequests\"")
                .contains("watch.max.open.per.token");
            assertThat(app.upgradeAnswer(path, "wrong")).as("only a reader learns of the caps").startsWith("HTTP/1.1 401");

            long admittedMs = awaitAdmission(reader, t0);
            assertThat(admittedMs).as("the silent watches end no sooner than watch.min.request.timeout.ms")
                .isBetween(MIN_REQUEST_TIMEOUT_MS, 2 * MIN_REQUEST_TIMEOUT_MS + SLACK_MS);
        } finally {
            for (InputStream in : silent) {
                in.close();
            }
        }
    }

    /** Milliseconds after {@code t0} at which a fabric8 watch of the reader is admitted, trying every 100 ms. */
    private static long awaitAdmission(KubernetesClient reader, long t0) throws InterruptedException {
        while (true) {
            long elapsed = (System.nanoTime() - t0) / 1_000_000;
            try (Watch admitted = watch(reader)) {
                return elapsed;
            } catch (KubernetesClientException e) {
                assertThat(e.getCode()).as("refused only by the cap").isEqualTo(429);
                assertThat(elapsed).as("a watch admitted by twice the minimum").isLessThan(2 * MIN_REQUEST_TIMEOUT_MS + 2 * SLACK_MS);
                Thread.sleep(100);
            }
        }
    }

    private static Watch watch(KubernetesClient reader) {
        return reader.genericKubernetesResources("statesync.io/v1", KIND).inNamespace("default").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource resource) {
                // Only admission matters here.
            }

            @Override
            public void onClose(WatcherException cause) {
                // Closed by the test.
            }
        });
    }

    /** The reader's fabric8 client, with no retries of its own, so that a 429 reaches the caller as it arrives. */
    private static KubernetesClient readerClient(String base) {
        Config c = new ConfigBuilder(Config.empty()).withMasterUrl(base).withOauthToken(KubeTestApp.READER)
            .withNamespace("default").withRequestRetryBackoffLimit(0).withConnectionTimeout(5_000).build();
        return new KubernetesClientBuilder().withConfig(c).build();
    }
}
